"""bpeviz home page (placeholder until the app issue lands)."""

import streamlit as st

st.set_page_config(page_title="bpeviz", layout="wide")
st.title("bpeviz")
st.write("A visual explorer of BPE, byte-level BPE and WordPiece training.")
