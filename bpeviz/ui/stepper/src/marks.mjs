// Text drawn so that nothing in it is unseen: whitespace as · → ↵, invisible characters
// by their short names, a combining mark with nothing to sit on on a dotted circle; the
// names of the marks a token holds, for its title; a token's bytes as text and back.
// data.marks: {character: [how it is drawn alone ("◌्", "⟨ZWJ⟩"), its Unicode name]}, made
// by bpeviz.text.display.mark_table; the rules below are bpeviz.text.display.visible's and
// names_title's, so a mark is drawn and named alike on every page.

const SHOWN_WS = { " ": "·", "\t": "→", "\n": "↵", "\r": "␍" };

const DOTTED_CIRCLE = "\u25cc";

function isMark(ch, marks) {
  const m = marks && marks[ch];
  return m ? m[0].startsWith(DOTTED_CIRCLE) : /^\p{M}$/u.test(ch) && !isSelector(ch);
}

function isSelector(ch) { // a variation selector (drawn ⟨VS16⟩, part of the emoji before it)
  const cp = ch.codePointAt(0);
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

function invisibleMark(ch, marks) {
  const m = marks && marks[ch];
  if (m && !m[0].startsWith(DOTTED_CIRCLE)) return m[0];
  if (isSelector(ch) || /^[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cs}]$/u.test(ch)) {
    return `⟨U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`;
  }
  return null;
}

// s with nothing left unseen: whitespace as · → ↵ (when ws), invisible characters as
// ⟨ZWJ⟩ (a joiner inside an emoji sequence kept), a combining mark with nothing to sit on
// on a dotted circle
export function visibleText(s, ws = true, marks = null) {
  const chars = Array.from(s);
  let out = "", bare = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i], prev = chars[i - 1], next = chars[i + 1];
    const cp = ch.codePointAt(0);
    if (SHOWN_WS[ch]) {
      out += ws ? SHOWN_WS[ch] + (ch === "\n" ? "\n" : "") : ch;
      bare = true;
    } else if (ch === "\u200d" && i > 0 && i < chars.length - 1 && !bare
               && prev.codePointAt(0) > 0x7f && next.codePointAt(0) > 0x7f) {
      out += ch; // a joiner inside an emoji sequence: the sequence stays one picture
    } else if (isMark(ch, marks) || (cp >= 0xfe00 && cp <= 0xfe0f && !bare
               && !isMark(prev, marks) && invisibleMark(prev, marks) === null)) {
      out += bare ? DOTTED_CIRCLE + ch : ch;
      bare = false;
    } else {
      const shown = cp > 0x7e || cp < 0x20 ? invisibleMark(ch, marks) : null;
      out += shown === null ? ch : shown;
      bare = shown !== null;
    }
  }
  return out;
}

// " · ◌् U+094D DEVANAGARI SIGN VIRAMA" for each distinct mark of text (at most 8)
export function namesTitle(text, marks) {
  if (!marks) return "";
  const seen = [];
  for (const ch of text) {
    if (marks[ch] && !seen.includes(ch) && seen.length < 8) seen.push(ch);
  }
  return seen.map((ch) => ` · ${marks[ch][0]} ${marks[ch][1]}`).join("");
}

// a token's text from its bytes in hex ("e0 a5 8d"), a part of a character left out
let UTF8 = null;
export function hexText(hex) {
  const bytes = String(hex || "").split(/\s+/).filter((x) => /^[0-9a-f]{2}$/i.test(x));
  if (!UTF8) UTF8 = new TextDecoder();
  return UTF8.decode(new Uint8Array(bytes.map((x) => parseInt(x, 16)))).replaceAll("\ufffd", "");
}

// the names of the marks a token's bytes hold, for its title ("" when the data has none:
// nothing decoded, so a page of plain text draws as fast as before)
export function hexNames(hex, marks) {
  if (!marks || typeof marks !== "object") return "";
  for (const _ in marks) return namesTitle(hexText(hex), marks);
  return "";
}

// a text's UTF-8 bytes in hex, as Python's bytes.hex(" ") writes them
export function utf8Hex(s) {
  return Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, "0")).join(" ");
}
