/* bpeviz.unigram._lattice: the Unigram trainer's inner loops, compiled.
 *
 * Each function is a port of NumPy / Python code that stays the reference and runs where
 * this module is not built (or with BPEVIZ_ENGINE=python); the tests train with both and
 * compare every step's pieces and scores:
 *
 *   substrings   the counting loop of seed_pieces (bpeviz/unigram/trainer.py)
 *   occurrences  Batch.__init__ (bpeviz/unigram/_batch.py): every seed piece in every word
 *   viterbi      Batch.viterbi
 *   expected     Batch.expected_counts (forward-backward and the float32 sums)
 *
 * The NumPy code runs the lattices of all words together, one local position at a time;
 * here each loop walks the words directly. Float32 arithmetic is done in the same order,
 * so results are bit-identical. `expected` calls libm's exp and log1p, as sentencepiece
 * does (the NumPy code calls them through Python's math module: NumPy's own SIMD exp and
 * log can differ from libm's in the last bit).
 *
 * Built by `python setup.py build_ext --inplace` with -ffp-contract=off, so that no
 * multiply-add is fused (NumPy rounds every operation).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- growable int64 vector ---------------------------------------------------------- */
typedef struct {
    int64_t *v;
    Py_ssize_t n, cap;
} LVec;

static int lvec_push(LVec *x, int64_t val) {
    if (x->n == x->cap) {
        Py_ssize_t cap = x->cap ? 2 * x->cap : 1024;
        int64_t *v = PyMem_RawRealloc(x->v, (size_t)cap * sizeof(int64_t));
        if (!v) { PyErr_NoMemory(); return -1; }
        x->v = v;
        x->cap = cap;
    }
    x->v[x->n++] = val;
    return 0;
}

static PyObject *lvec_bytes(LVec *x) {
    return PyByteArray_FromStringAndSize((const char *)x->v, x->n * (Py_ssize_t)sizeof(int64_t));
}

/* ---- strings as one UCS4 buffer ------------------------------------------------------ */
typedef struct {
    Py_UCS4 *chars;
    int64_t *start;
    int32_t *len;
    Py_ssize_t n;
} Texts;

static void texts_free(Texts *t) {
    PyMem_RawFree(t->chars);
    PyMem_RawFree(t->start);
    PyMem_RawFree(t->len);
    memset(t, 0, sizeof(*t));
}

static int texts_load(PyObject *seq, Texts *t) {
    memset(t, 0, sizeof(*t));
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of str");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    int64_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_Check(items[i])) {
            PyErr_SetString(PyExc_TypeError, "expected a sequence of str");
            goto fail;
        }
        total += PyUnicode_GET_LENGTH(items[i]);
    }
    t->chars = PyMem_RawMalloc((size_t)(total + 1) * sizeof(Py_UCS4));
    t->start = PyMem_RawMalloc((size_t)(n + 1) * sizeof(int64_t));
    t->len = PyMem_RawMalloc((size_t)(n + 1) * sizeof(int32_t));
    if (!t->chars || !t->start || !t->len) { PyErr_NoMemory(); goto fail; }
    t->n = n;
    int64_t off = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(items[i]);
        if (len > INT32_MAX) { PyErr_SetString(PyExc_OverflowError, "a word is too long"); goto fail; }
        if (len && !PyUnicode_AsUCS4(items[i], t->chars + off, len, 0)) goto fail;
        t->start[i] = off;
        t->len[i] = (int32_t)len;
        off += len;
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    texts_free(t);
    return -1;
}

/* ---- a hash table of substrings (offset and length into one UCS4 buffer) --------------- */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static inline uint64_t hash_step(uint64_t h, Py_UCS4 c) { return (h ^ (uint64_t)c) * FNV_PRIME; }

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

typedef struct {
    int32_t *slot;  /* entry id, or -1 */
    uint64_t mask;
    const Py_UCS4 *chars;
    int64_t *off;
    int32_t *len;
    uint64_t *hash;
    int32_t n, cap;
} Table;

static void table_free(Table *t) {
    PyMem_RawFree(t->slot);
    PyMem_RawFree(t->off);
    PyMem_RawFree(t->len);
    PyMem_RawFree(t->hash);
    memset(t, 0, sizeof(*t));
}

static int table_init(Table *t, const Py_UCS4 *chars) {
    memset(t, 0, sizeof(*t));
    t->chars = chars;
    t->mask = 1023;
    t->slot = PyMem_RawMalloc(1024 * sizeof(int32_t));
    if (!t->slot) { PyErr_NoMemory(); return -1; }
    memset(t->slot, 0xff, 1024 * sizeof(int32_t));
    return 0;
}

/* the entry of chars[off:off + len] (hash h), or -1; *where: its slot or the empty one */
static inline int32_t table_find(const Table *t, const Py_UCS4 *s, int32_t len, uint64_t h,
                                 uint64_t *where) {
    uint64_t i = mix64(h) & t->mask;
    for (;;) {
        int32_t id = t->slot[i];
        if (id < 0) { *where = i; return -1; }
        if (t->hash[id] == h && t->len[id] == len &&
            memcmp(t->chars + t->off[id], s, (size_t)len * sizeof(Py_UCS4)) == 0) {
            *where = i;
            return id;
        }
        i = (i + 1) & t->mask;
    }
}

/* a new entry at slot `where` (from table_find); returns its id or -1 (memory error).
 * `extra`: per-entry arrays the caller keeps, grown with the table (NULL-terminated). */
typedef struct { void **ptr; size_t size; } Extra;

static int32_t table_add(Table *t, uint64_t where, int64_t off, int32_t len, uint64_t h,
                         Extra *extra) {
    if (t->n == t->cap) {
        if (t->cap >= INT32_MAX / 2) { PyErr_SetString(PyExc_OverflowError, "too many substrings"); return -1; }
        int32_t cap = t->cap ? 2 * t->cap : 1024;
        void *o = PyMem_RawRealloc(t->off, (size_t)cap * sizeof(int64_t));
        if (!o) { PyErr_NoMemory(); return -1; }
        t->off = o;
        void *l = PyMem_RawRealloc(t->len, (size_t)cap * sizeof(int32_t));
        if (!l) { PyErr_NoMemory(); return -1; }
        t->len = l;
        void *hh = PyMem_RawRealloc(t->hash, (size_t)cap * sizeof(uint64_t));
        if (!hh) { PyErr_NoMemory(); return -1; }
        t->hash = hh;
        for (Extra *e = extra; e && e->ptr; e++) {
            void *p = PyMem_RawRealloc(*e->ptr, (size_t)cap * e->size);
            if (!p) { PyErr_NoMemory(); return -1; }
            *e->ptr = p;
        }
        t->cap = cap;
    }
    int32_t id = t->n++;
    t->off[id] = off;
    t->len[id] = len;
    t->hash[id] = h;
    t->slot[where] = id;
    if ((uint64_t)t->n * 2 > t->mask + 1) {  /* keep the load under one half */
        uint64_t size = (t->mask + 1) * 2;
        int32_t *slot = PyMem_RawMalloc((size_t)size * sizeof(int32_t));
        if (!slot) { PyErr_NoMemory(); return -1; }
        memset(slot, 0xff, (size_t)size * sizeof(int32_t));
        uint64_t mask = size - 1;
        for (int32_t k = 0; k < t->n; k++) {
            uint64_t i = mix64(t->hash[k]) & mask;
            while (slot[i] >= 0) i = (i + 1) & mask;
            slot[i] = k;
        }
        PyMem_RawFree(t->slot);
        t->slot = slot;
        t->mask = mask;
    }
    return id;
}

/* the first UTF-8 byte of a code point (surrogates as "surrogatepass" encodes them) */
static inline int lead_byte(Py_UCS4 c) {
    if (c < 0x80) return (int)c;
    if (c < 0x800) return 0xC0 | (int)(c >> 6);
    if (c < 0x10000) return 0xE0 | (int)(c >> 12);
    return 0xF0 | (int)(c >> 18);
}

static int int64_list(PyObject *seq, Py_ssize_t n, int64_t **out, const char *name) {
    PyObject *fast = PySequence_Fast(seq, name);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", name, n);
        Py_DECREF(fast);
        return -1;
    }
    *out = PyMem_RawMalloc((size_t)(n + 1) * sizeof(int64_t));
    if (!*out) { Py_DECREF(fast); PyErr_NoMemory(); return -1; }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        (*out)[i] = PyLong_AsLongLong(items[i]);
        if ((*out)[i] == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

/* ---- substrings: seed_pieces' counting loop ----------------------------------------- */

/* trainer._char_class, as numbers: these three, a script's number (>= 0), or NO_SCRIPT */
#define CLASS_BAD (-1)
#define CLASS_META (-2)
#define CLASS_INHERITED (-3)
#define NO_SCRIPT (-4)

typedef struct {
    const uint32_t *key;
    const int32_t *cls;
    uint64_t mask;
    int by_script;
} CharClasses;

static inline int32_t char_class(const CharClasses *c, Py_UCS4 ch) {
    uint64_t k = mix64(ch) & c->mask;
    while (c->key[k] != 0xffffffffu) {
        if (c->key[k] == ch) return c->cls[k];
        k = (k + 1) & c->mask;
    }
    return CLASS_BAD;  /* only the unknown character is never counted */
}

/* trainer._valid_piece */
static int valid_piece(const CharClasses *c, const Py_UCS4 *s, int32_t len) {
    int32_t prev = NO_SCRIPT;
    for (int32_t pos = 0; pos < len; pos++) {
        int32_t cls = char_class(c, s[pos]);
        if (cls == CLASS_BAD) return 0;
        if (cls == CLASS_META) {
            if (pos > 0) return 0;
            continue;
        }
        if (cls == CLASS_INHERITED) continue;
        if (c->by_script && cls != NO_SCRIPT && prev != NO_SCRIPT && prev != cls) return 0;
        prev = cls;
    }
    return 1;
}
static PyObject *py_substrings(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *words_o, *counts_o, *follow_o, *wanted_o, *classes_o;
    int max_len, by_script;
    unsigned int unk;
    if (!PyArg_ParseTuple(args, "OOOiIOO!p", &words_o, &counts_o, &follow_o, &max_len, &unk,
                          &wanted_o, &PyDict_Type, &classes_o, &by_script))
        return NULL;
    Texts words;
    if (texts_load(words_o, &words) < 0) return NULL;
    Table table;
    int64_t *counts = NULL, *follow = NULL, *freq = NULL;
    int16_t *next = NULL;
    Extra extra[] = {{(void **)&freq, sizeof(int64_t)}, {(void **)&next, sizeof(int16_t)},
                     {NULL, 0}};
    PyObject *result = NULL, *subs = NULL, *chars = NULL, *freq_out = NULL, *branch_out = NULL;
    /* character counts: a small open-addressing table of code points */
    uint64_t cmask = 255;
    uint32_t *ckey = NULL;
    int64_t *cval = NULL;
    int32_t *cclass = NULL;
    int32_t cn = 0;
    LVec picked = {0};
    if (table_init(&table, words.chars) < 0) { texts_free(&words); return NULL; }
    if (int64_list(counts_o, words.n, &counts, "counts") < 0) goto done;
    if (int64_list(follow_o, words.n, &follow, "follow") < 0) goto done;
    ckey = PyMem_RawMalloc((cmask + 1) * sizeof(uint32_t));
    cval = PyMem_RawMalloc((cmask + 1) * sizeof(int64_t));
    if (!ckey || !cval) { PyErr_NoMemory(); goto done; }
    memset(ckey, 0xff, (cmask + 1) * sizeof(uint32_t));
    for (Py_ssize_t w = 0; w < words.n; w++) {
        const Py_UCS4 *s = words.chars + words.start[w];
        int32_t n = words.len[w];
        int64_t count = counts[w];
        int fol = (int)follow[w];
        for (int32_t i = 0; i < n; i++) {
            if (s[i] != unk) {
                uint64_t k = mix64(s[i]) & cmask;
                while (ckey[k] != 0xffffffffu && ckey[k] != s[i]) k = (k + 1) & cmask;
                if (ckey[k] == 0xffffffffu) {
                    ckey[k] = s[i];
                    cval[k] = 0;
                    if (++cn * 2 > (int64_t)(cmask + 1)) {
                        uint64_t size = (cmask + 1) * 2, mask2 = size - 1;
                        uint32_t *k2 = PyMem_RawMalloc(size * sizeof(uint32_t));
                        int64_t *v2 = PyMem_RawMalloc(size * sizeof(int64_t));
                        if (!k2 || !v2) {
                            PyMem_RawFree(k2); PyMem_RawFree(v2); PyErr_NoMemory(); goto done;
                        }
                        memset(k2, 0xff, size * sizeof(uint32_t));
                        for (uint64_t q = 0; q <= cmask; q++) {
                            if (ckey[q] == 0xffffffffu) continue;
                            uint64_t r = mix64(ckey[q]) & mask2;
                            while (k2[r] != 0xffffffffu) r = (r + 1) & mask2;
                            k2[r] = ckey[q];
                            v2[r] = cval[q];
                        }
                        PyMem_RawFree(ckey); PyMem_RawFree(cval);
                        ckey = k2; cval = v2; cmask = mask2;
                        k = mix64(s[i]) & cmask;
                        while (ckey[k] != s[i]) k = (k + 1) & cmask;
                    }
                }
                cval[k] += count;
            }
            uint64_t h = hash_step(FNV_OFFSET, s[i]);
            int32_t jmax = n < i + max_len ? n : i + max_len;
            for (int32_t j = i + 2; j <= jmax; j++) {
                h = hash_step(h, s[j - 1]);
                int nxt = j < n ? lead_byte(s[j]) : fol;
                uint64_t where;
                int32_t id = table_find(&table, s + i, j - i, h, &where);
                if (id < 0) {
                    id = table_add(&table, where, words.start[w] + i, j - i, h, extra);
                    if (id < 0) goto done;
                    freq[id] = count;
                    next[id] = (int16_t)nxt;
                } else {
                    freq[id] += count;
                    if (next[id] != -1 && next[id] != nxt) next[id] = -1;
                }
            }
        }
    }
    /* the branching substrings, then the wanted ones that are not */
    /* every character's class (trainer._char_class as CLASS_* or a script number) */
    cclass = PyMem_RawMalloc((cmask + 1) * sizeof(int32_t));
    if (!cclass) { PyErr_NoMemory(); goto done; }
    for (uint64_t q = 0; q <= cmask; q++) {
        cclass[q] = CLASS_BAD;
        if (ckey[q] == 0xffffffffu) continue;
        Py_UCS4 c = ckey[q];
        PyObject *key = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, &c, 1);
        if (!key) goto done;
        PyObject *val = PyDict_GetItemWithError(classes_o, key);
        Py_DECREF(key);
        if (!val) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_KeyError, "a character of the words has no class");
            goto done;
        }
        long v = PyLong_AsLong(val);
        if (v == -1 && PyErr_Occurred()) goto done;
        cclass[q] = (int32_t)v;
    }
    CharClasses classes = {ckey, cclass, cmask, by_script};
    for (int32_t id = 0; id < table.n; id++)
        if (next[id] == -1 && valid_piece(&classes, words.chars + table.off[id], table.len[id]) &&
            lvec_push(&picked, id) < 0)
            goto done;
    int64_t n_branching = picked.n;
    if (wanted_o != Py_None) {
        Texts wanted;
        if (texts_load(wanted_o, &wanted) < 0) goto done;
        for (Py_ssize_t k = 0; k < wanted.n; k++) {
            const Py_UCS4 *s = wanted.chars + wanted.start[k];
            int32_t len = wanted.len[k];
            if (len < 1) continue;
            uint64_t h = FNV_OFFSET, where;
            for (int32_t i = 0; i < len; i++) h = hash_step(h, s[i]);
            int32_t id = table_find(&table, s, len, h, &where);
            if (id >= 0 && next[id] != -1 && valid_piece(&classes, s, len) &&
                lvec_push(&picked, id) < 0) {
                texts_free(&wanted);
                goto done;
            }
        }
        texts_free(&wanted);
    }
    subs = PyList_New(picked.n);
    freq_out = PyByteArray_FromStringAndSize(NULL, picked.n * (Py_ssize_t)sizeof(int64_t));
    branch_out = PyByteArray_FromStringAndSize(NULL, picked.n);
    chars = PyDict_New();
    if (!subs || !freq_out || !branch_out || !chars) goto done;
    int64_t *fo = (int64_t *)PyByteArray_AS_STRING(freq_out);
    char *bo = PyByteArray_AS_STRING(branch_out);
    for (Py_ssize_t k = 0; k < picked.n; k++) {
        int32_t id = (int32_t)picked.v[k];
        PyObject *str = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND,
                                                  words.chars + table.off[id], table.len[id]);
        if (!str) goto done;
        PyList_SET_ITEM(subs, k, str);
        fo[k] = freq[id];
        bo[k] = k < n_branching;
    }
    for (uint64_t q = 0; q <= cmask; q++) {
        if (ckey[q] == 0xffffffffu) continue;
        Py_UCS4 c = ckey[q];
        PyObject *key = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, &c, 1);
        PyObject *val = key ? PyLong_FromLongLong(cval[q]) : NULL;
        int bad = !val || PyDict_SetItem(chars, key, val) < 0;
        Py_XDECREF(key);
        Py_XDECREF(val);
        if (bad) goto done;
    }
    result = PyTuple_Pack(4, subs, freq_out, branch_out, chars);
done:
    Py_XDECREF(subs);
    Py_XDECREF(freq_out);
    Py_XDECREF(branch_out);
    Py_XDECREF(chars);
    PyMem_RawFree(counts);
    PyMem_RawFree(follow);
    PyMem_RawFree(freq);
    PyMem_RawFree(next);
    PyMem_RawFree(ckey);
    PyMem_RawFree(cval);
    PyMem_RawFree(cclass);
    PyMem_RawFree(picked.v);
    table_free(&table);
    texts_free(&words);
    return result;
}

/* ---- occurrences: Batch.__init__ ------------------------------------------------------ */
static PyObject *py_occurrences(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *words_o, *pieces_o, *values_o;
    int max_len;
    if (!PyArg_ParseTuple(args, "OOOi", &words_o, &pieces_o, &values_o, &max_len)) return NULL;
    Texts words, pieces;
    if (texts_load(words_o, &words) < 0) return NULL;
    if (texts_load(pieces_o, &pieces) < 0) { texts_free(&words); return NULL; }
    Table table;
    int32_t *value = NULL;
    int64_t *values = NULL;
    Extra extra[] = {{(void **)&value, sizeof(int32_t)}, {NULL, 0}};
    LVec os = {0}, oe = {0}, op = {0};
    PyObject *result = NULL, *char_out = NULL;
    if (table_init(&table, pieces.chars) < 0) goto done;
    if (int64_list(values_o, pieces.n, &values, "values") < 0) goto done;
    /* every prefix of every piece (value -1 unless it is itself a piece) */
    for (Py_ssize_t k = 0; k < pieces.n; k++) {
        const Py_UCS4 *s = pieces.chars + pieces.start[k];
        uint64_t h = FNV_OFFSET;
        for (int32_t len = 1; len <= pieces.len[k]; len++) {
            h = hash_step(h, s[len - 1]);
            uint64_t where;
            int32_t id = table_find(&table, s, len, h, &where);
            if (id < 0) {
                id = table_add(&table, where, pieces.start[k], len, h, extra);
                if (id < 0) goto done;
                value[id] = -1;
            }
            if (len == pieces.len[k]) {
                if (values[k] < 0 || values[k] > INT32_MAX) {
                    PyErr_SetString(PyExc_ValueError, "piece indices must be in 0 .. 2**31");
                    goto done;
                }
                value[id] = (int32_t)values[k];
            }
        }
    }
    int64_t size = 0;
    for (Py_ssize_t w = 0; w < words.n; w++) size += words.len[w] + 1;
    char_out = PyByteArray_FromStringAndSize(NULL, (size > 1 ? size : 1) * (Py_ssize_t)sizeof(int64_t));
    if (!char_out) goto done;
    int64_t *char_piece = (int64_t *)PyByteArray_AS_STRING(char_out);
    for (int64_t i = 0; i < (size > 1 ? size : 1); i++) char_piece[i] = -1;
    int64_t base = 0;
    for (Py_ssize_t w = 0; w < words.n; w++) {
        const Py_UCS4 *s = words.chars + words.start[w];
        int32_t n = words.len[w];
        for (int32_t i = 0; i < n; i++) {
            uint64_t h = FNV_OFFSET;
            int32_t jmax = n < i + max_len ? n : i + max_len;
            for (int32_t j = i + 1; j <= jmax; j++) {
                h = hash_step(h, s[j - 1]);
                uint64_t where;
                int32_t id = table_find(&table, s + i, j - i, h, &where);
                if (id < 0) break;  /* no piece starts with word[i:j] */
                int32_t v = value[id];
                if (v < 0) continue;
                if (j == i + 1) char_piece[base + i] = v;
                if (lvec_push(&os, base + i) < 0 || lvec_push(&oe, base + j) < 0 ||
                    lvec_push(&op, v) < 0)
                    goto done;
            }
        }
        base += n + 1;
    }
    PyObject *a = lvec_bytes(&os), *b = lvec_bytes(&oe), *c = lvec_bytes(&op);
    if (a && b && c) result = PyTuple_Pack(4, a, b, c, char_out);
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
done:
    Py_XDECREF(char_out);
    PyMem_RawFree(value);
    PyMem_RawFree(values);
    PyMem_RawFree(os.v);
    PyMem_RawFree(oe.v);
    PyMem_RawFree(op.v);
    table_free(&table);
    texts_free(&words);
    texts_free(&pieces);
    return result;
}

/* ---- the lattice of the current vocabulary ------------------------------------------- */
typedef struct {
    Py_buffer b[8];
    int nb;
    const int64_t *occ_s, *occ_e, *occ_p, *char_piece, *word_start, *word_end;
    const uint8_t *alive;
    const float *scores;
    Py_ssize_t n_occ, n_words, size, n_pieces;
    int64_t unk_index;
    float unk_score;
} Live;

static void live_release(Live *L) {
    for (int i = 0; i < L->nb; i++) PyBuffer_Release(&L->b[i]);
    L->nb = 0;
}

static const void *live_view(Live *L, PyObject *o, Py_ssize_t itemsize, const char *name,
                             Py_ssize_t *count) {
    Py_buffer *b = &L->b[L->nb];
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    L->nb++;
    if (b->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: expected items of %zd bytes", name, itemsize);
        return NULL;
    }
    *count = b->len / itemsize;
    return b->buf;
}

/* (occ_s, occ_e, occ_p, char_piece, word_start, word_end, alive, scores) from a tuple */
static int live_load(Live *L, PyObject *arrays, PyObject *unk_index, double unk_score) {
    memset(L, 0, sizeof(*L));
    if (!PyTuple_Check(arrays) || PyTuple_GET_SIZE(arrays) != 8) {
        PyErr_SetString(PyExc_TypeError, "expected a tuple of 8 arrays");
        return -1;
    }
    Py_ssize_t n1, n2, n3, n4, n5, n6, n7, n8;
    if (!(L->occ_s = live_view(L, PyTuple_GET_ITEM(arrays, 0), 8, "occ_s", &n1)) ||
        !(L->occ_e = live_view(L, PyTuple_GET_ITEM(arrays, 1), 8, "occ_e", &n2)) ||
        !(L->occ_p = live_view(L, PyTuple_GET_ITEM(arrays, 2), 8, "occ_p", &n3)) ||
        !(L->char_piece = live_view(L, PyTuple_GET_ITEM(arrays, 3), 8, "char_piece", &n4)) ||
        !(L->word_start = live_view(L, PyTuple_GET_ITEM(arrays, 4), 8, "word_start", &n5)) ||
        !(L->word_end = live_view(L, PyTuple_GET_ITEM(arrays, 5), 8, "word_end", &n6)) ||
        !(L->alive = live_view(L, PyTuple_GET_ITEM(arrays, 6), 1, "alive", &n7)) ||
        !(L->scores = live_view(L, PyTuple_GET_ITEM(arrays, 7), 4, "scores", &n8))) {
        live_release(L);
        return -1;
    }
    L->n_occ = n1;
    L->n_words = n5;
    L->size = n4;
    L->n_pieces = n7;
    L->unk_index = PyLong_AsLongLong(unk_index);
    L->unk_score = (float)unk_score;
    if (n2 != n1 || n3 != n1 || n6 != n5 || n8 != n7 || (L->unk_index == -1 && PyErr_Occurred()) ||
        L->unk_index < 0 || L->unk_index >= n7 || (n5 && L->word_end[n5 - 1] >= n4)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "inconsistent lattice arrays");
        live_release(L);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n1; i++)
        if (L->occ_p[i] < 0 || L->occ_p[i] >= n7 || L->occ_s[i] < 0 || L->occ_e[i] >= n4 ||
            (i && L->occ_s[i] < L->occ_s[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "occurrences out of range or out of order");
            live_release(L);
            return -1;
        }
    return 0;
}

/* ---- viterbi: Batch.viterbi ------------------------------------------------------------ */
static PyObject *py_viterbi(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *arrays, *unk_o;
    double unk_score;
    int skip_whole;
    if (!PyArg_ParseTuple(args, "OOdp", &arrays, &unk_o, &unk_score, &skip_whole)) return NULL;
    Live L;
    if (live_load(&L, arrays, unk_o, unk_score) < 0) return NULL;
    PyObject *result = NULL, *scores_out = NULL, *pw = NULL, *pp = NULL, *ps = NULL, *pe = NULL;
    Py_ssize_t size = L.size;
    float *best = PyMem_RawMalloc((size_t)size * sizeof(float));
    int64_t *back_s = PyMem_RawMalloc((size_t)size * sizeof(int64_t));
    int64_t *back_p = PyMem_RawMalloc((size_t)size * sizeof(int64_t));
    if (!best || !back_s || !back_p) { PyErr_NoMemory(); goto done; }
    scores_out = PyByteArray_FromStringAndSize(NULL, L.n_words * (Py_ssize_t)sizeof(double));
    if (!scores_out) goto done;
    double *so = (double *)PyByteArray_AS_STRING(scores_out);
    Py_ssize_t q = 0, path_len = 0;
    for (Py_ssize_t w = 0; w < L.n_words; w++) {
        int64_t ws = L.word_start[w], we = L.word_end[w];
        best[ws] = 0.0f;
        back_s[ws] = -1;
        for (int64_t p = ws + 1; p <= we; p++) { best[p] = -INFINITY; back_s[p] = -1; }
        for (int64_t s = ws; s < we; s++) {
            while (q < L.n_occ && L.occ_s[q] < s) q++;
            float b = best[s];
            int64_t cp = L.char_piece[s];
            /* nodes by start: every end gets its candidates earliest start first, and
             * keeps the first of the best (NumPy: max score, then smallest start) */
            if (cp < 0 || !L.alive[cp]) {
                float cand = b + L.unk_score;
                if (cand > best[s + 1]) { best[s + 1] = cand; back_s[s + 1] = s; back_p[s + 1] = L.unk_index; }
            }
            for (Py_ssize_t k = q; k < L.n_occ && L.occ_s[k] == s; k++) {
                int64_t p = L.occ_p[k], e = L.occ_e[k];
                if (!L.alive[p] || (skip_whole && s == ws && e == we)) continue;
                float cand = b + L.scores[p];
                if (cand > best[e]) { best[e] = cand; back_s[e] = s; back_p[e] = p; }
            }
        }
        so[w] = (double)best[we];
        if (we > ws && back_s[we] >= 0)
            for (int64_t c = we; c > ws; c = back_s[c]) path_len++;
    }
    pw = PyByteArray_FromStringAndSize(NULL, path_len * (Py_ssize_t)sizeof(int64_t));
    pp = PyByteArray_FromStringAndSize(NULL, path_len * (Py_ssize_t)sizeof(int64_t));
    ps = PyByteArray_FromStringAndSize(NULL, path_len * (Py_ssize_t)sizeof(int64_t));
    pe = PyByteArray_FromStringAndSize(NULL, path_len * (Py_ssize_t)sizeof(int64_t));
    if (!pw || !pp || !ps || !pe) goto done;
    int64_t *ow = (int64_t *)PyByteArray_AS_STRING(pw), *op = (int64_t *)PyByteArray_AS_STRING(pp);
    int64_t *os = (int64_t *)PyByteArray_AS_STRING(ps), *oe = (int64_t *)PyByteArray_AS_STRING(pe);
    Py_ssize_t at = 0;
    for (Py_ssize_t w = 0; w < L.n_words; w++) {
        int64_t ws = L.word_start[w], we = L.word_end[w];
        if (!(we > ws && back_s[we] >= 0)) continue;
        Py_ssize_t n = 0;
        for (int64_t c = we; c > ws; c = back_s[c]) n++;
        Py_ssize_t k = at + n;
        for (int64_t c = we; c > ws; c = back_s[c]) {
            k--;
            ow[k] = w; op[k] = back_p[c]; os[k] = back_s[c]; oe[k] = c;
        }
        at += n;
    }
    result = PyTuple_Pack(5, pw, pp, ps, pe, scores_out);
done:
    Py_XDECREF(pw);
    Py_XDECREF(pp);
    Py_XDECREF(ps);
    Py_XDECREF(pe);
    Py_XDECREF(scores_out);
    PyMem_RawFree(best);
    PyMem_RawFree(back_s);
    PyMem_RawFree(back_p);
    live_release(&L);
    return result;
}

/* ---- expected: Batch.expected_counts ----------------------------------------------------- */

/* sentencepiece's LogSumExp(x, y) for x, y not more than 50 apart: the difference in
 * float32, then libm's exp and log1p in double, and the sum rounded to float32 */
static inline float log_sum_exp(float vmax, float vmin) {
    return (float)((double)vmax + log1p(exp((double)(vmin - vmax))));
}

/* One sweep of SentencePiece's float32 LogSumExp fold (NumPy's _sweep), level by level:
 * level k holds the positions k steps from the words' starts (forward) or ends
 * (backward); a position's value folds its incoming nodes in lattice order.
 * in_start[pos] .. in_start[pos + 1]: the incoming nodes of pos (src, score) in order.
 * No position of a level reads another of the same level. */
static void sweep(float *table, const int64_t *in_start, const int64_t *in_src,
                  const float *in_sc, const int64_t *pos_of_rank, const int64_t *level_start,
                  int64_t n_levels) {
    const float fifty = 50.0f;
    for (int64_t level = 0; level < n_levels; level++) {
        for (int64_t rank = level_start[level]; rank < level_start[level + 1]; rank++) {
            int64_t lo = in_start[rank], hi = in_start[rank + 1];
            if (hi == lo) continue;
            float acc = in_sc[lo] + table[in_src[lo]];
            for (int64_t k = lo + 1; k < hi; k++) {
                float y = in_sc[k] + table[in_src[k]];
                float vmin = acc < y ? acc : y, vmax = acc < y ? y : acc;
                /* no NaN can reach here (no score is +inf) */
                if (vmax > vmin + fifty || !isfinite(vmin))
                    acc = vmax;
                else
                    acc = log_sum_exp(vmax, vmin);
            }
            table[pos_of_rank[rank]] = acc;
        }
    }
}

/* The sweep's order of positions: level 1 of every word (in corpus order), then level 2,
 * ...: pos_of_rank[rank], rank_of[pos]; level k is level_start[k - 1] .. level_start[k].
 * Laying the incoming nodes out in this order lets a sweep read them front to back. */
static int64_t sweep_order(const int64_t *word_pos, const int64_t *word_len, Py_ssize_t n_words,
                           int forward, int64_t *active, int64_t *pos_of_rank, int64_t *rank_of,
                           int64_t *level_start) {
    int64_t nw = 0, rank = 0, level = 0;
    for (Py_ssize_t w = 0; w < n_words; w++)
        if (word_len[w] > 0) active[nw++] = w;
    for (int64_t k = 1; nw; k++) {
        level_start[level++] = rank;
        int64_t still = 0;
        for (int64_t i = 0; i < nw; i++) {
            int64_t w = active[i];
            if (word_len[w] > k) active[still++] = w;
            int64_t pos = forward ? word_pos[w] + k : word_pos[w] - k;
            pos_of_rank[rank] = pos;
            rank_of[pos] = rank++;
        }
        nw = still;
    }
    level_start[level] = rank;
    return level;
}

/* in_start/in_src/in_sc: the nodes grouped by their destination's rank (forward: the end,
 * backward: the start), in node order within a group (a stable counting sort) */
static int group_by_rank(const int64_t *dst, const int64_t *src, const float *nsc,
                         Py_ssize_t n, const int64_t *rank_of, int64_t ranks,
                         int64_t *in_start, int64_t *in_src, float *in_sc) {
    memset(in_start, 0, ((size_t)ranks + 2) * sizeof(int64_t));
    for (Py_ssize_t k = 0; k < n; k++) in_start[rank_of[dst[k]] + 1]++;
    for (int64_t i = 0; i < ranks; i++) in_start[i + 1] += in_start[i];
    int64_t *fill = PyMem_RawMalloc(((size_t)ranks + 1) * sizeof(int64_t));
    if (!fill) { PyErr_NoMemory(); return -1; }
    memcpy(fill, in_start, ((size_t)ranks + 1) * sizeof(int64_t));
    for (Py_ssize_t k = 0; k < n; k++) {
        int64_t at = fill[rank_of[dst[k]]]++;
        in_src[at] = src[k];
        in_sc[at] = nsc[k];
    }
    PyMem_RawFree(fill);
    return 0;
}

static PyObject *py_expected(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *arrays, *unk_o, *counts_o;
    double unk_score;
    int threads;
    if (!PyArg_ParseTuple(args, "OOdOi", &arrays, &unk_o, &unk_score, &counts_o, &threads))
        return NULL;
    if (threads < 1) { PyErr_SetString(PyExc_ValueError, "threads must be at least 1"); return NULL; }
    Live L;
    if (live_load(&L, arrays, unk_o, unk_score) < 0) return NULL;
    Py_buffer cb;
    if (PyObject_GetBuffer(counts_o, &cb, PyBUF_C_CONTIGUOUS) < 0) { live_release(&L); return NULL; }
    PyObject *result = NULL, *expected_out = NULL, *logz_out = NULL;
    const double *counts = cb.buf;
    Py_ssize_t size = L.size, nwords = L.n_words, npieces = L.n_pieces;
    /* nodes in lattice order: by start, then by end, the unknown node of a position after
     * the pieces that start there (sentencepiece's PopulateNodes inserts the trie's
     * matches, shortest first, then the unknown node) */
    LVec ns = {0}, ne = {0}, np_ = {0};
    float *alpha = NULL, *beta = NULL, *nsc = NULL, *in_sc = NULL;
    double *contrib = NULL;
    float *sums = NULL;
    int64_t *in_start = NULL, *in_src = NULL, *word_len = NULL, *active = NULL;
    int64_t *pos_of_rank = NULL, *rank_of = NULL, *level_start = NULL;
    int32_t *nw = NULL;
    if (cb.len / (Py_ssize_t)sizeof(double) != nwords) {
        PyErr_SetString(PyExc_ValueError, "counts: one float64 per word expected");
        goto done;
    }
    {   /* at most every occurrence and one unknown node per position: no regrowth */
        Py_ssize_t most = L.n_occ + size + 1;
        ns.v = PyMem_RawMalloc((size_t)most * sizeof(int64_t));
        ne.v = PyMem_RawMalloc((size_t)most * sizeof(int64_t));
        np_.v = PyMem_RawMalloc((size_t)most * sizeof(int64_t));
        if (!ns.v || !ne.v || !np_.v) { PyErr_NoMemory(); goto done; }
        ns.cap = ne.cap = np_.cap = most;
    }
    Py_ssize_t q = 0;
    for (Py_ssize_t w = 0; w < nwords; w++) {
        int64_t ws = L.word_start[w], we = L.word_end[w];
        for (int64_t s = ws; s < we; s++) {
            while (q < L.n_occ && L.occ_s[q] < s) q++;
            int64_t cp = L.char_piece[s];
            for (Py_ssize_t k = q; k < L.n_occ && L.occ_s[k] == s; k++) {
                if (!L.alive[L.occ_p[k]]) continue;
                if (lvec_push(&ns, s) < 0 || lvec_push(&ne, L.occ_e[k]) < 0 ||
                    lvec_push(&np_, L.occ_p[k]) < 0)
                    goto done;
            }
            if (cp < 0 || !L.alive[cp]) {
                if (lvec_push(&ns, s) < 0 || lvec_push(&ne, s + 1) < 0 || lvec_push(&np_, -1) < 0)
                    goto done;
            }
        }
    }
    Py_ssize_t n = ns.n;
    nsc = PyMem_RawMalloc((size_t)(n + 1) * sizeof(float));
    nw = PyMem_RawMalloc((size_t)(n + 1) * sizeof(int32_t));
    alpha = PyMem_RawMalloc((size_t)size * sizeof(float));
    beta = PyMem_RawMalloc((size_t)size * sizeof(float));
    in_start = PyMem_RawCalloc((size_t)size + 2, sizeof(int64_t));
    in_src = PyMem_RawMalloc((size_t)(n + 1) * sizeof(int64_t));
    in_sc = PyMem_RawMalloc((size_t)(n + 1) * sizeof(float));
    word_len = PyMem_RawMalloc((size_t)(nwords + 1) * sizeof(int64_t));
    active = PyMem_RawMalloc((size_t)(nwords + 1) * sizeof(int64_t));
    contrib = PyMem_RawMalloc((size_t)(n + 1) * sizeof(double));
    if (!nsc || !nw || !alpha || !beta || !in_start || !in_src || !in_sc || !word_len ||
        !active || !contrib) {
        PyErr_NoMemory();
        goto done;
    }
    {
        Py_ssize_t k = 0;
        for (Py_ssize_t w = 0; w < nwords; w++)
            for (; k < n && ns.v[k] < L.word_end[w]; k++) nw[k] = (int32_t)w;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int64_t p = np_.v[k];
        if (p < 0) { nsc[k] = L.unk_score; np_.v[k] = L.unk_index; }
        else nsc[k] = L.scores[p];
    }
    for (Py_ssize_t w = 0; w < nwords; w++) word_len[w] = L.word_end[w] - L.word_start[w];
    /* forward: each position folds the nodes ending there, by start */
    int64_t max_len = 0, ranks = 0;
    for (Py_ssize_t w = 0; w < nwords; w++) {
        if (word_len[w] > max_len) max_len = word_len[w];
        ranks += word_len[w];
    }
    pos_of_rank = PyMem_RawMalloc(((size_t)ranks + 1) * sizeof(int64_t));
    rank_of = PyMem_RawMalloc(((size_t)size + 1) * sizeof(int64_t));
    level_start = PyMem_RawMalloc(((size_t)max_len + 2) * sizeof(int64_t));
    if (!pos_of_rank || !rank_of || !level_start) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < size; i++) alpha[i] = -INFINITY;
    for (Py_ssize_t w = 0; w < nwords; w++) alpha[L.word_start[w]] = 0.0f;
    int64_t levels = sweep_order(L.word_start, word_len, nwords, 1, active, pos_of_rank,
                                 rank_of, level_start);
    if (group_by_rank(ne.v, ns.v, nsc, n, rank_of, ranks, in_start, in_src, in_sc) < 0)
        goto done;
    sweep(alpha, in_start, in_src, in_sc, pos_of_rank, level_start, levels);
    /* backward: each position folds the nodes starting there, by end */
    for (Py_ssize_t i = 0; i < size; i++) beta[i] = -INFINITY;
    for (Py_ssize_t w = 0; w < nwords; w++) beta[L.word_end[w]] = 0.0f;
    levels = sweep_order(L.word_end, word_len, nwords, 0, active, pos_of_rank, rank_of,
                         level_start);
    if (group_by_rank(ns.v, ne.v, nsc, n, rank_of, ranks, in_start, in_src, in_sc) < 0)
        goto done;
    sweep(beta, in_start, in_src, in_sc, pos_of_rank, level_start, levels);
    /* each node's expected count: count x exp(alpha + score + beta - log Z) */
    for (Py_ssize_t k = 0; k < n; k++) {
        int32_t w = nw[k];
        float logz = alpha[L.word_end[w]];
        float m = ((alpha[ns.v[k]] + nsc[k]) + beta[ne.v[k]]) - logz;
        contrib[k] = exp((double)m);  /* libm's, as sentencepiece's std::exp */
    }
    /* float32 sums per (thread, piece) in node order, each term added as C adds a double
     * to a float (sentencepiece's expected[id] += freq * exp(...)) */
    size_t keys = (size_t)threads * (size_t)npieces;
    sums = PyMem_RawCalloc(keys ? keys : 1, sizeof(float));
    if (!sums) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < n; k++) {
        int32_t w = nw[k];
        double v = (double)(float)counts[w] * contrib[k];
        /* (piece, thread) side by side: a piece's terms share cache lines */
        size_t key = (size_t)np_.v[k] * (size_t)threads + (size_t)(w % threads);
        sums[key] = (float)((double)sums[key] + v);
    }
    expected_out = PyByteArray_FromStringAndSize(NULL, npieces * (Py_ssize_t)sizeof(double));
    logz_out = PyByteArray_FromStringAndSize(NULL, nwords * (Py_ssize_t)sizeof(double));
    if (!expected_out || !logz_out) goto done;
    double *eo = (double *)PyByteArray_AS_STRING(expected_out);
    for (Py_ssize_t p = 0; p < npieces; p++) {
        const float *by_thread = sums + (size_t)p * (size_t)threads;
        float e = by_thread[0];
        for (int t = 1; t < threads; t++) e += by_thread[t];
        eo[p] = (double)e;
    }
    double *lo = (double *)PyByteArray_AS_STRING(logz_out);
    for (Py_ssize_t w = 0; w < nwords; w++) lo[w] = (double)alpha[L.word_end[w]];
    result = PyTuple_Pack(2, expected_out, logz_out);
done:
    Py_XDECREF(expected_out);
    Py_XDECREF(logz_out);
    PyMem_RawFree(ns.v);
    PyMem_RawFree(ne.v);
    PyMem_RawFree(np_.v);
    PyMem_RawFree(nsc);
    PyMem_RawFree(nw);
    PyMem_RawFree(alpha);
    PyMem_RawFree(beta);
    PyMem_RawFree(in_start);
    PyMem_RawFree(in_src);
    PyMem_RawFree(in_sc);
    PyMem_RawFree(word_len);
    PyMem_RawFree(active);
    PyMem_RawFree(pos_of_rank);
    PyMem_RawFree(rank_of);
    PyMem_RawFree(level_start);
    PyMem_RawFree(contrib);
    PyMem_RawFree(sums);
    PyBuffer_Release(&cb);
    live_release(&L);
    return result;
}

/* ---- the M-step and the pruning's arithmetic (trainer.py), with libm's log ------------
 * Python's math.log is libm's log, so these give the Python loops' results exactly. */
static int f64_view(PyObject *o, Py_buffer *b, const char *name) {
    if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (b->len % 8) {
        PyErr_Format(PyExc_TypeError, "%s: expected 8-byte items", name);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* trainer.digamma, operation for operation */
static double digamma(double x) {
    double result = 0.0;
    while (x < 7) {
        result -= 1 / x;
        x += 1;
    }
    x -= 0.5;
    double xx = 1.0 / x;
    double xx2 = xx * xx;
    double xx4 = xx2 * xx2;
    result += ((((log(x) + (1.0 / 24.0) * xx2) - (7.0 / 960.0) * xx4)
                + ((31.0 / 8064.0) * xx4) * xx2) - ((127.0 / 30720.0) * xx4) * xx4);
    return result;
}

static PyObject *py_digammas(PyObject *Py_UNUSED(m), PyObject *arg) {
    Py_buffer b;
    if (f64_view(arg, &b, "values") < 0) return NULL;
    Py_ssize_t n = b.len / 8;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n * 8);
    if (out) {
        const double *x = b.buf;
        double *o = (double *)PyByteArray_AS_STRING(out);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!(x[i] > 0)) {  /* Python raises (1 / 0) or loops forever (nan) */
                PyErr_SetString(PyExc_ValueError, "digamma needs positive values");
                Py_DECREF(out);
                out = NULL;
                break;
            }
            o[i] = digamma(x[i]);
        }
    }
    PyBuffer_Release(&b);
    return out;
}

/* _prune's cost of each judged piece i: its alternative is alt[bounds[i] .. bounds[i + 1]) */
static PyObject *py_prune_costs(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *ids_o, *alt_o, *bounds_o, *freq_o;
    double total, logsum;
    if (!PyArg_ParseTuple(args, "OOOOdd", &ids_o, &alt_o, &bounds_o, &freq_o, &total, &logsum))
        return NULL;
    Py_buffer ib, ab, bb, fb;
    if (f64_view(ids_o, &ib, "ids") < 0) return NULL;
    if (f64_view(alt_o, &ab, "alternatives") < 0) { PyBuffer_Release(&ib); return NULL; }
    if (f64_view(bounds_o, &bb, "bounds") < 0) {
        PyBuffer_Release(&ib); PyBuffer_Release(&ab); return NULL;
    }
    if (f64_view(freq_o, &fb, "freq") < 0) {
        PyBuffer_Release(&ib); PyBuffer_Release(&ab); PyBuffer_Release(&bb); return NULL;
    }
    const int64_t *ids = ib.buf, *alt = ab.buf, *bounds = bb.buf;
    const double *freq = fb.buf;
    Py_ssize_t n = ib.len / 8, n_alt = ab.len / 8, n_bounds = bb.len / 8, n_freq = fb.len / 8;
    PyObject *result = NULL, *lost_out = PyByteArray_FromStringAndSize(NULL, n * 8);
    PyObject *loss_out = PyByteArray_FromStringAndSize(NULL, n * 8);
    if (!lost_out || !loss_out) goto done;
    double *lost = (double *)PyByteArray_AS_STRING(lost_out);
    double *loss = (double *)PyByteArray_AS_STRING(loss_out);
    for (Py_ssize_t k = 0; k < n; k++) {
        int64_t i = ids[k];
        if (i < 0 || i + 1 >= n_bounds || i >= n_freq || bounds[i] < 0 ||
            bounds[i + 1] > n_alt || bounds[i] > bounds[i + 1] || !(freq[i] > 0)) {
            PyErr_SetString(PyExc_ValueError, "a judged piece is out of range or unused");
            goto done;
        }
        float fi = (float)freq[i];
        float f = (float)((double)fi / total);  /* F: a share of the Viterbi tokens */
        float logprob_sp = (float)(log((double)fi) - logsum);
        int64_t lo = bounds[i], hi = bounds[i + 1];
        float grown = (float)(total + (double)(float)((double)fi * (double)(hi - lo - 1)));
        float logsum_alt = (float)log((double)grown);
        double logprob_alt = 0.0;
        for (int64_t q = lo; q < hi; q++) {
            int64_t a = alt[q];
            if (a < 0 || a >= n_freq) {
                PyErr_SetString(PyExc_ValueError, "an alternative piece is out of range");
                goto done;
            }
            float with = (float)((double)(float)freq[a] + (double)fi);
            logprob_alt = (double)(float)(logprob_alt + (log((double)with) - (double)logsum_alt));
        }
        float l = (float)((double)logprob_sp - logprob_alt);
        lost[k] = (double)l;
        loss[k] = (double)(float)((double)f * (double)l);
    }
    result = PyTuple_Pack(2, lost_out, loss_out);
done:
    Py_XDECREF(lost_out);
    Py_XDECREF(loss_out);
    PyBuffer_Release(&ib);
    PyBuffer_Release(&ab);
    PyBuffer_Release(&bb);
    PyBuffer_Release(&fb);
    return result;
}

static PyMethodDef module_methods[] = {
    {"digammas", py_digammas, METH_O,
     "digammas(values float64) -> float64 bytearray: trainer.digamma of each value."},
    {"prune_costs", py_prune_costs, METH_VARARGS,
     "prune_costs(ids, alternatives, bounds, freq, total, logsum) -> (lost, loss) "
     "float64 bytearrays: _prune's float32 arithmetic for each judged piece."},
    {"substrings", py_substrings, METH_VARARGS,
     "substrings(words, counts, follow, max_len, unk_char, wanted, classes, by_script) -> "
     "(subs, freq int64, branching uint8, chars): seed_pieces' counts of every substring of "
     "2 .. max_len characters; the valid branching ones, then the valid ones of `wanted` "
     "that are not branching."},
    {"occurrences", py_occurrences, METH_VARARGS,
     "occurrences(words, pieces, values, max_len) -> (occ_s, occ_e, occ_p, char_piece) "
     "int64 bytearrays, as Batch.__init__ computes them."},
    {"viterbi", py_viterbi, METH_VARARGS,
     "viterbi(arrays, unk_index, unk_score, skip_whole) -> (words, pieces, starts, ends, "
     "scores) bytearrays (int64 x 4, float64), as Batch.viterbi."},
    {"expected", py_expected, METH_VARARGS,
     "expected(arrays, unk_index, unk_score, counts, threads) -> (expected, "
     "log Z) float64 bytearrays, as Batch.expected_counts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef lattice_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bpeviz.unigram._lattice",
    .m_doc = "The Unigram trainer's inner loops, compiled (see bpeviz/unigram/_batch.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__lattice(void) { return PyModule_Create(&lattice_module); }
