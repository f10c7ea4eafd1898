"""A paste of every script the views must keep readable: Arabic and Hebrew words inside
English sentences, Hindi with vowel signs and viramas, emoji joined by ZWJ and a
variation selector. Trained as the app trains it with byte-level BPE (GPT-2's
pre-tokenizer: a word keeps the space before it), merge 20 is made from two Arabic words,
so "Why this merge?" lists them inside an English sentence."""

TEXT = ("The Arabic words سلام and مرحبا and كتاب sit in this English sentence. "
        "سلام عليكم، مرحبا بكم، كتاب جميل، مكتبة كبيرة، سلام مرحبا كتاب.\n"
        "Hebrew: שלום, שלום עולם, שלום חברים, ספר טוב.\n"
        "Hindi: नमस्ते दुनिया, मैं हिंदी में लिखता हूँ। क्षमा करें, प्रेम, विद्या, स्कूल।\n"
        "Emoji: 👩\u200d💻 👨\u200d👩\u200d👧\u200d👦 ❤\ufe0f 🏳\ufe0f\u200d🌈\n")
#: the merge whose "Why this merge?" lists Arabic words, and those words in corpus order
ARABIC_STEP = 20
ARABIC_WORDS = (" مرحبا", " كبيرة")
