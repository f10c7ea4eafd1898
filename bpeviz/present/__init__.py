"""HTML, figures and slides drawn from the analysis layer: pure functions, no streamlit."""
