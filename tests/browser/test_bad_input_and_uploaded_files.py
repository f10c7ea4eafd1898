"""Bad input in Chromium shows a message and keeps the text; an uploaded corpus trains
(a file that is not UTF-8 is named), and an opened tokenizer file is used on Tokenize."""

from __future__ import annotations

import pytest

from tests.support.browser import HOSTILE, go, no_error, paste_corpus, rerun_done, shot, wait_card

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


def test_bad_input_shows_a_message_and_keeps_the_text(page, server):
    go(page, server, "Explore?size_by=vocab&vocab=5")
    alert = page.locator('[data-testid="stAlert"]').first
    assert "ask for at least" in alert.inner_text()
    paste_corpus(page, "   \n\t ")
    assert page.locator('[data-testid="stAlert"]').count() >= 1
    assert page.locator('[data-testid="stSidebar"] textarea').input_value() == "   \n\t "
    no_error(page)


def test_uploaded_corpus_and_tokenizer_files(page, server):
    from bpeviz import Corpus, formats, train

    go(page, server, "Explore?merges=30&step=2")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Upload", exact=True).click()
    rerun_done(page)
    uploader = sidebar.locator('[data-testid="stFileUploaderDropzoneInput"]')
    uploader.set_input_files({"name": "latin1.txt", "mimeType": "text/plain",
                              "buffer": "café crème brûlée".encode("latin-1")})
    rerun_done(page)
    alert = page.locator('[data-testid="stMain"] [data-testid="stAlert"]').first
    assert "latin1.txt is not UTF-8 text" in alert.inner_text()
    name = '<img src=x onerror=alert(1)> $x$.txt'
    uploader.set_input_files({"name": name, "mimeType": "text/plain",
                              "buffer": b"hug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5\n"})
    rerun_done(page)
    wait_card(page, "Merge 2")
    assert name in sidebar.inner_text(), "the file name shows literally"
    no_error(page)

    hostile = train(Corpus.from_text((HOSTILE + "\n") * 3), "bpe", merges=40)
    files = formats.export(hostile.at(40), "hf")
    go(page, server, "Vocabulary")
    main = page.locator('[data-testid="stMain"]')
    opener = main.locator('[data-testid="stFileUploaderDropzoneInput"]')
    opener.set_input_files({"name": "tokenizer.json", "mimeType": "application/json",
                            "buffer": b'{"model": {"type": "BPE", "vocab": '})
    rerun_done(page)
    # (the first alert may be another's: the default training decodes without spaces)
    assert main.locator('[data-testid="stAlert"]').filter(has_text="cannot be opened").count()
    opener.set_input_files({"name": "tokenizer.json", "mimeType": "application/json",
                            "buffer": files["tokenizer.json"].encode()})
    rerun_done(page)
    assert "Opened tokenizer.json" in main.inner_text()
    main.get_by_role("link", name="Tokenize with it").click()
    rerun_done(page)
    area = page.locator('[data-testid="stMain"] textarea').first
    area.fill(HOSTILE)
    area.press("Control+Enter")
    rerun_done(page)
    radio = page.locator('[data-testid="stMain"] [data-testid="stRadio"]').first.inner_text()
    assert "the opened file (tokenizer.json)" in radio, radio
    assert page.locator(".bv-tokens").first.inner_text().replace("\n", "") == HOSTILE
    assert page.locator(".bv-tokens img, .bv-tokens script").count() == 0
    no_error(page)
    shot(page, "tokenize-opened-file")
