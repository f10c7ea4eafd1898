/* bpeviz._merge: the incremental merge loop of bpeviz.training, compiled.
 *
 * The pair counts, word index, heap and choosing rules are a line-for-line port of the
 * pure-Python engine ``_PairState`` in bpeviz/training.py, which stays the reference:
 * the tests (tests/test_engines.py) train with both and compare every merge, count,
 * score and forest node. Read the Python version first; the comments here only cover
 * what C adds (the hash table, the heap, the vectors, the forest kept per symbol).
 * The module also has three snapshot helpers, tested against NumPy code in
 * bpeviz/snapshot.py.
 *
 * State: every word's current split (int32 ids, rewritten in place) and the node of the
 * merge forest behind each of its symbols, pair counts in an open-addressing hash table
 * from (left, right) to a pair record, each pair's list of words that may hold it (a
 * superset: stale entries are skipped), a first-occurrence lower bound per pair (tie
 * rule "first"), a binary heap with lazy deletion, and the forest itself: one node per
 * initial symbol and per merge site (token, word, position, step made, step merged).
 *
 * Built by `python setup.py build_ext --inplace` (or `pip install -e .`); bpeviz falls
 * back to the Python engine when it is not built.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---- growable int32 vector ------------------------------------------------------ */
typedef struct {
    int32_t *v;
    int32_t n, cap;
} IVec;

static int ivec_reserve(IVec *x, int64_t need) {
    if (need <= x->cap) return 0;
    if (need > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a table outgrew 2**31 entries");
        return -1;
    }
    int64_t cap = x->cap ? x->cap : 4;
    while (cap < need) cap *= 2;
    if (cap > INT32_MAX) cap = INT32_MAX;
    int32_t *v = PyMem_RawRealloc(x->v, (size_t)cap * sizeof(int32_t));
    if (!v) { PyErr_NoMemory(); return -1; }
    x->v = v;
    x->cap = (int32_t)cap;
    return 0;
}

static inline int ivec_push(IVec *x, int32_t val) {
    if (x->n == x->cap && ivec_reserve(x, x->n + 1) < 0) return -1;
    x->v[x->n++] = val;
    return 0;
}

static void ivec_free(IVec *x) {
    PyMem_RawFree(x->v);
    x->v = NULL;
    x->n = x->cap = 0;
}

/* ---- pairs ------------------------------------------------------------------------ */
typedef struct {
    int32_t a, b;
    int64_t count;      /* 0: not in the pair table (the Python dict deletes it) */
    int32_t fw;         /* first-occurrence lower bound: word ... */
    int32_t foff;       /* ... and unit offset in it; INT32_MAX = none yet */
    IVec where;         /* words that may hold the pair */
    int32_t mark;       /* dedup stamps for the per-merge sets */
    int32_t pmark;
    int8_t where_sorted;
} Pair;

typedef struct {        /* a heap entry; ties on prio compare the pair's (a, b) */
    double prio;        /* count, or WordPiece score; higher pops first */
    int32_t fw, foff;   /* the first-occurrence bound when pushed (first rule) */
    int32_t pair;
} Entry;

typedef struct {
    PyObject_HEAD
    int first_rule, scored;
    int64_t min_freq;
    int filtered;
    int stop;           /* 0 none, 1 no_pairs, 2 min_frequency */
    /* words */
    int64_t n_words;
    int32_t *wdata;
    int64_t *wstart;
    int32_t *wlen;
    int64_t *wcount;
    int32_t *wnodes;    /* the forest node of each current symbol, laid out like wdata */
    int32_t *scratch, *nscratch;
    /* tokens */
    int64_t n_vocab, vocab_cap;
    int64_t *units;     /* initial symbols a token spans */
    int64_t *uc;        /* weighted count of each token (WordPiece score) */
    IVec *pairs_of;     /* token -> pairs holding it (scored only) */
    /* pair table */
    Pair *pairs;
    int64_t n_pairs, pairs_cap;
    uint64_t *hkeys;
    int32_t *hvals;
    int64_t hcap;
    /* heap */
    Entry *heap;
    int64_t heap_n, heap_cap;
    /* per-merge scratch sets */
    int32_t stamp;
    IVec grown, dropped, push;
    /* the merge forest: node i is token n_token[i] of word n_word[i] at initial-symbol
     * position n_start[i] (corpus-wide), made at n_step[i], merged away at n_until[i] */
    IVec n_token, n_word, n_start, n_step, n_until;
    int64_t initial_tokens;
} State;

static inline uint64_t pair_key(int32_t a, int32_t b) {
    return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static int32_t pair_find(State *s, int32_t a, int32_t b) {
    uint64_t key = pair_key(a, b);
    uint64_t mask = (uint64_t)s->hcap - 1;
    for (uint64_t h = mix(key) & mask;; h = (h + 1) & mask) {
        int32_t v = s->hvals[h];
        if (v < 0) return -1;
        if (s->hkeys[h] == key) return v;
    }
}

static int hash_grow(State *s) {
    int64_t cap = s->hcap * 2;
    uint64_t *keys = PyMem_RawMalloc((size_t)cap * sizeof(uint64_t));
    int32_t *vals = PyMem_RawMalloc((size_t)cap * sizeof(int32_t));
    if (!keys || !vals) { PyMem_RawFree(keys); PyMem_RawFree(vals); PyErr_NoMemory(); return -1; }
    memset(vals, 0xff, (size_t)cap * sizeof(int32_t));
    uint64_t mask = (uint64_t)cap - 1;
    for (int64_t i = 0; i < s->hcap; i++) {
        if (s->hvals[i] < 0) continue;
        uint64_t h = mix(s->hkeys[i]) & mask;
        while (vals[h] >= 0) h = (h + 1) & mask;
        keys[h] = s->hkeys[i];
        vals[h] = s->hvals[i];
    }
    PyMem_RawFree(s->hkeys);
    PyMem_RawFree(s->hvals);
    s->hkeys = keys;
    s->hvals = vals;
    s->hcap = cap;
    return 0;
}

/* The record of (a, b), created (count 0) if new; -1 on memory error. */
static int32_t pair_get(State *s, int32_t a, int32_t b) {
    uint64_t key = pair_key(a, b);
    uint64_t mask = (uint64_t)s->hcap - 1;
    uint64_t h = mix(key) & mask;
    for (;; h = (h + 1) & mask) {
        int32_t v = s->hvals[h];
        if (v < 0) break;
        if (s->hkeys[h] == key) return v;
    }
    if (s->n_pairs == s->pairs_cap) {
        int64_t cap = s->pairs_cap * 2;
        Pair *p = PyMem_RawRealloc(s->pairs, (size_t)cap * sizeof(Pair));
        if (!p) { PyErr_NoMemory(); return -1; }
        s->pairs = p;
        s->pairs_cap = cap;
    }
    if (s->n_pairs >= INT32_MAX) { PyErr_SetString(PyExc_OverflowError, "too many pairs"); return -1; }
    int32_t idx = (int32_t)s->n_pairs++;
    Pair *p = &s->pairs[idx];
    memset(p, 0, sizeof(Pair));
    p->a = a;
    p->b = b;
    p->fw = INT32_MAX;
    p->foff = INT32_MAX;
    p->where_sorted = 1;
    p->mark = p->pmark = -1;
    s->hkeys[h] = key;
    s->hvals[h] = idx;
    if (s->n_pairs * 2 > s->hcap && hash_grow(s) < 0) return -1;
    return idx;
}

static inline int where_add(Pair *p, int32_t w) {
    if (p->where.n) {
        int32_t last = p->where.v[p->where.n - 1];
        if (last == w) return 0;
        if (w < last) p->where_sorted = 0;
    }
    return ivec_push(&p->where, w);
}

/* ---- priorities and the heap ------------------------------------------------------ */
/* count / (uc[a] * uc[b]) exactly as Python's int / int rounds it. */
static int score_of(State *s, int64_t count, int32_t a, int32_t b, double *out) {
    int64_t ua = s->uc[a], ub = s->uc[b];
    const int64_t exact = (int64_t)1 << 53;
    if (ua > 0 && ub > 0 && ua < exact && ub < exact && ua <= exact / ub && count <= exact) {
        *out = (double)count / ((double)ua * (double)ub);
        return 0;
    }
    /* beyond 2**53 Python rounds the exact quotient: let it do so */
    PyObject *n = PyLong_FromLongLong(count), *x = PyLong_FromLongLong(ua),
             *y = PyLong_FromLongLong(ub), *d = NULL, *q = NULL;
    if (n && x && y) d = PyNumber_Multiply(x, y);
    if (d) q = PyNumber_TrueDivide(n, d);
    Py_XDECREF(n); Py_XDECREF(x); Py_XDECREF(y); Py_XDECREF(d);
    if (!q) return -1;
    *out = PyFloat_AsDouble(q);
    Py_DECREF(q);
    return 0;
}

static inline int priority(State *s, int32_t pi, double *out) {
    Pair *p = &s->pairs[pi];
    if (s->scored && p->count) return score_of(s, p->count, p->a, p->b, out);
    *out = (double)p->count;
    return 0;
}

static inline int make_entry(State *s, int32_t pi, Entry *e) {
    Pair *p = &s->pairs[pi];
    if (priority(s, pi, &e->prio) < 0) return -1;
    e->fw = s->first_rule ? p->fw : 0;
    e->foff = s->first_rule ? p->foff : 0;
    e->pair = pi;
    return 0;
}

/* x pops before y: higher priority, then (first rule) the earlier occurrence, then ids */
static inline int before(const State *s, const Entry *x, const Entry *y) {
    if (x->prio != y->prio) return x->prio > y->prio;
    if (s->first_rule) {
        if (x->fw != y->fw) return x->fw < y->fw;
        if (x->foff != y->foff) return x->foff < y->foff;
    }
    const Pair *px = &s->pairs[x->pair], *py = &s->pairs[y->pair];
    if (px->a != py->a) return px->a < py->a;
    return px->b < py->b;
}

static void sift_down(State *s, int64_t i) {
    Entry *h = s->heap;
    int64_t n = s->heap_n;
    Entry e = h[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && before(s, &h[c + 1], &h[c])) c++;
        if (!before(s, &h[c], &e)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

static int heap_push(State *s, const Entry *e) {
    if (s->heap_n == s->heap_cap) {
        int64_t cap = s->heap_cap ? s->heap_cap * 2 : 1024;
        Entry *h = PyMem_RawRealloc(s->heap, (size_t)cap * sizeof(Entry));
        if (!h) { PyErr_NoMemory(); return -1; }
        s->heap = h;
        s->heap_cap = cap;
    }
    Entry *h = s->heap;
    int64_t i = s->heap_n++;
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        if (!before(s, e, &h[parent])) break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = *e;
    return 0;
}

static void heap_pop(State *s) {
    s->heap_n--;
    if (s->heap_n > 0) {
        s->heap[0] = s->heap[s->heap_n];
        sift_down(s, 0);
    }
}

static void heap_replace(State *s, const Entry *e) {
    s->heap[0] = *e;
    sift_down(s, 0);
}

/* ---- the merge forest -------------------------------------------------------------- */
#define NEVER INT32_MAX

static int add_node(State *s, int32_t token, int32_t w, int32_t start, int32_t step) {
    if (s->n_token.n >= INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many merge sites");
        return -1;
    }
    if (ivec_push(&s->n_token, token) < 0 || ivec_push(&s->n_word, w) < 0 ||
        ivec_push(&s->n_start, start) < 0 || ivec_push(&s->n_step, step) < 0 ||
        ivec_push(&s->n_until, NEVER) < 0)
        return -1;
    return 0;
}

/* ---- tokens ------------------------------------------------------------------------ */
static int add_token(State *s, int64_t units) {
    if (s->n_vocab == s->vocab_cap) {
        int64_t cap = s->vocab_cap ? s->vocab_cap * 2 : 256;
        int64_t *u = PyMem_RawRealloc(s->units, (size_t)cap * sizeof(int64_t));
        if (!u) { PyErr_NoMemory(); return -1; }
        s->units = u;
        int64_t *c = PyMem_RawRealloc(s->uc, (size_t)cap * sizeof(int64_t));
        if (!c) { PyErr_NoMemory(); return -1; }
        s->uc = c;
        IVec *po = PyMem_RawRealloc(s->pairs_of, (size_t)cap * sizeof(IVec));
        if (!po) { PyErr_NoMemory(); return -1; }
        s->pairs_of = po;
        s->vocab_cap = cap;
    }
    s->units[s->n_vocab] = units;
    s->uc[s->n_vocab] = 0;
    memset(&s->pairs_of[s->n_vocab], 0, sizeof(IVec));
    s->n_vocab++;
    return 0;
}

/* ---- set-up ------------------------------------------------------------------------ */
static void State_clear(State *s) {
    PyMem_RawFree(s->wdata); s->wdata = NULL;
    PyMem_RawFree(s->wstart); s->wstart = NULL;
    PyMem_RawFree(s->wlen); s->wlen = NULL;
    PyMem_RawFree(s->wcount); s->wcount = NULL;
    PyMem_RawFree(s->wnodes); s->wnodes = NULL;
    PyMem_RawFree(s->scratch); s->scratch = NULL;
    PyMem_RawFree(s->nscratch); s->nscratch = NULL;
    if (s->pairs_of)
        for (int64_t i = 0; i < s->n_vocab; i++) ivec_free(&s->pairs_of[i]);
    PyMem_RawFree(s->pairs_of); s->pairs_of = NULL;
    PyMem_RawFree(s->units); s->units = NULL;
    PyMem_RawFree(s->uc); s->uc = NULL;
    s->n_vocab = s->vocab_cap = 0;
    if (s->pairs)
        for (int64_t i = 0; i < s->n_pairs; i++) ivec_free(&s->pairs[i].where);
    PyMem_RawFree(s->pairs); s->pairs = NULL;
    s->n_pairs = s->pairs_cap = 0;
    PyMem_RawFree(s->hkeys); s->hkeys = NULL;
    PyMem_RawFree(s->hvals); s->hvals = NULL;
    PyMem_RawFree(s->heap); s->heap = NULL;
    s->heap_n = s->heap_cap = 0;
    ivec_free(&s->grown); ivec_free(&s->dropped); ivec_free(&s->push);
    ivec_free(&s->n_token); ivec_free(&s->n_word); ivec_free(&s->n_start);
    ivec_free(&s->n_step); ivec_free(&s->n_until);
}

static void State_dealloc(State *s) {
    State_clear(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s must hold %zd-byte integers", what, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* State(flat, lengths, counts, n_vocab, first_rule, scored, min_frequency)
 * flat: int32 ids of all words' initial symbols; lengths, counts: int64 per word. */
static int State_init(State *s, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"flat", "lengths", "counts", "n_vocab", "first_rule", "scored",
                             "min_frequency", NULL};
    PyObject *flat_o, *len_o, *cnt_o;
    Py_ssize_t n_vocab;
    int first_rule, scored;
    long long min_freq;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOnppL", kwlist, &flat_o, &len_o, &cnt_o,
                                     &n_vocab, &first_rule, &scored, &min_freq))
        return -1;
    State_clear(s);
    Py_buffer fb, lb, cb;
    if (get_buffer(flat_o, &fb, 4, "flat") < 0) return -1;
    if (get_buffer(len_o, &lb, 8, "lengths") < 0) { PyBuffer_Release(&fb); return -1; }
    if (get_buffer(cnt_o, &cb, 8, "counts") < 0) {
        PyBuffer_Release(&fb); PyBuffer_Release(&lb); return -1;
    }
    int rc = -1;
    int64_t n_words = lb.len / 8, n_flat = fb.len / 4;
    const int32_t *flat = fb.buf;
    const int64_t *lengths = lb.buf, *counts = cb.buf;
    if (cb.len / 8 != n_words) {
        PyErr_SetString(PyExc_ValueError, "one count per word is needed");
        goto done;
    }
    s->first_rule = first_rule;
    s->scored = scored;
    s->min_freq = min_freq;
    s->filtered = 0;
    s->stop = 0;
    s->stamp = 0;
    s->n_words = n_words;
    s->wdata = PyMem_RawMalloc((size_t)(n_flat ? n_flat : 1) * sizeof(int32_t));
    s->wstart = PyMem_RawMalloc((size_t)(n_words ? n_words : 1) * sizeof(int64_t));
    s->wlen = PyMem_RawMalloc((size_t)(n_words ? n_words : 1) * sizeof(int32_t));
    s->wcount = PyMem_RawMalloc((size_t)(n_words ? n_words : 1) * sizeof(int64_t));
    s->pairs_cap = 1024;
    s->pairs = PyMem_RawMalloc((size_t)s->pairs_cap * sizeof(Pair));
    s->hcap = 4096;
    s->hkeys = PyMem_RawMalloc((size_t)s->hcap * sizeof(uint64_t));
    s->hvals = PyMem_RawMalloc((size_t)s->hcap * sizeof(int32_t));
    if (!s->wdata || !s->wstart || !s->wlen || !s->wcount || !s->pairs || !s->hkeys ||
        !s->hvals) {
        PyErr_NoMemory();
        goto done;
    }
    if (n_flat >= INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "the corpus has too many symbols");
        goto done;
    }
    memset(s->hvals, 0xff, (size_t)s->hcap * sizeof(int32_t));
    for (Py_ssize_t i = 0; i < n_vocab; i++)
        if (add_token(s, 1) < 0) goto done;
    int64_t pos = 0, longest = 1;
    s->initial_tokens = 0;
    for (int64_t w = 0; w < n_words; w++) {
        if (lengths[w] < 0 || lengths[w] > INT32_MAX || pos + lengths[w] > n_flat) {
            PyErr_SetString(PyExc_ValueError, "word lengths do not match the symbols");
            goto done;
        }
        s->wstart[w] = pos;
        s->wlen[w] = (int32_t)lengths[w];
        s->wcount[w] = counts[w];
        if (lengths[w] > longest) longest = lengths[w];
        s->initial_tokens += lengths[w] * counts[w];
        for (int64_t i = pos; i < pos + lengths[w]; i++) {
            if (flat[i] < 0 || flat[i] >= n_vocab) {
                PyErr_SetString(PyExc_ValueError, "a symbol id is outside the vocabulary");
                goto done;
            }
            s->wdata[i] = flat[i];
        }
        pos += lengths[w];
    }
    s->scratch = PyMem_RawMalloc((size_t)longest * sizeof(int32_t));
    s->nscratch = PyMem_RawMalloc((size_t)longest * sizeof(int32_t));
    s->wnodes = PyMem_RawMalloc((size_t)(n_flat ? n_flat : 1) * sizeof(int32_t));
    if (!s->scratch || !s->nscratch || !s->wnodes) { PyErr_NoMemory(); goto done; }
    /* the forest starts with one node per initial symbol, then the pair table; each
     * merge site removes a symbol, so there are at most 2 * n_flat - n_words nodes
     * (reserved now: pages never touched cost no memory) */
    {
        int64_t bound = 2 * n_flat - n_words > n_flat ? 2 * n_flat - n_words : n_flat;
        if (bound > INT32_MAX) bound = INT32_MAX;
        IVec *parts[5] = {&s->n_token, &s->n_word, &s->n_start, &s->n_step, &s->n_until};
        for (int i = 0; i < 5; i++)
            if (ivec_reserve(parts[i], bound) < 0) goto done;
    }
    for (int64_t w = 0; w < n_words; w++) {
        for (int64_t i = s->wstart[w]; i < s->wstart[w] + s->wlen[w]; i++) {
            s->wnodes[i] = (int32_t)i;
            if (add_node(s, s->wdata[i], (int32_t)w, (int32_t)i, 0) < 0) goto done;
        }
    }
    for (int64_t w = 0; w < n_words; w++) {
        const int32_t *word = s->wdata + s->wstart[w];
        int64_t c = s->wcount[w];
        for (int32_t i = 0; i + 1 < s->wlen[w]; i++) {
            int32_t pi = pair_get(s, word[i], word[i + 1]);
            if (pi < 0) goto done;
            Pair *p = &s->pairs[pi];
            if (!p->count) {  /* new: its first occurrence (one unit per initial symbol) */
                p->fw = (int32_t)w;
                p->foff = (int32_t)i;
            }
            p->count += c;
            if (where_add(p, (int32_t)w) < 0) goto done;
        }
        if (scored)
            for (int32_t i = 0; i < s->wlen[w]; i++) s->uc[word[i]] += c;
    }
    if (scored) {
        for (int32_t pi = 0; pi < s->n_pairs; pi++) {
            Pair *p = &s->pairs[pi];
            if (ivec_push(&s->pairs_of[p->a], pi) < 0) goto done;
            if (p->b != p->a && ivec_push(&s->pairs_of[p->b], pi) < 0) goto done;
        }
    }
    s->heap_cap = s->n_pairs ? s->n_pairs : 1;
    s->heap = PyMem_RawMalloc((size_t)s->heap_cap * sizeof(Entry));
    if (!s->heap) { PyErr_NoMemory(); goto done; }
    for (int32_t pi = 0; pi < s->n_pairs; pi++)
        if (make_entry(s, pi, &s->heap[pi]) < 0) goto done;
    s->heap_n = s->n_pairs;
    for (int64_t i = s->heap_n / 2 - 1; i >= 0; i--) sift_down(s, i);
    rc = 0;
done:
    PyBuffer_Release(&fb);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&cb);
    if (rc < 0) State_clear(s);
    return rc;
}

#define CHECK_READY(s)                                                              \
    if (!(s)->wdata) {                                                              \
        PyErr_SetString(PyExc_RuntimeError, "merge state is not initialised");      \
        return NULL;                                                                \
    }

/* ---- choosing ------------------------------------------------------------------------ */
static int cmp_i32(const void *x, const void *y) {
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Unit offset of the first (a, b) in word w, or -1. */
static int64_t find_in_word(State *s, int32_t w, int32_t a, int32_t b) {
    const int32_t *word = s->wdata + s->wstart[w];
    int32_t n = s->wlen[w];
    int64_t off = 0;
    for (int32_t i = 0; i + 1 < n; i++) {
        if (word[i] == a && word[i + 1] == b) return off;
        off += s->units[word[i]];
    }
    return -1;
}

/* The first occurrence of pair pi, given a lower bound (often exact). */
static int true_first(State *s, int32_t pi, int32_t bw, int64_t boff, int32_t *ow,
                      int32_t *ooff) {
    Pair *p = &s->pairs[pi];
    int32_t a = p->a, b = p->b;
    if (bw >= 0 && bw < s->n_words) {  /* cheap check: is the bound itself an occurrence? */
        const int32_t *word = s->wdata + s->wstart[bw];
        int32_t n = s->wlen[bw];
        int64_t off = 0;
        for (int32_t i = 0; i + 1 < n; i++) {
            if (off == boff) {
                if (word[i] == a && word[i + 1] == b) {
                    *ow = bw;
                    *ooff = boff;
                    return 0;
                }
                break;
            }
            off += s->units[word[i]];
        }
    }
    IVec *wh = &p->where;
    if (!p->where_sorted) {
        qsort(wh->v, (size_t)wh->n, sizeof(int32_t), cmp_i32);
        int64_t k = 0;
        for (int64_t i = 0; i < wh->n; i++)
            if (!k || wh->v[k - 1] != wh->v[i]) wh->v[k++] = wh->v[i];
        wh->n = k;
        p->where_sorted = 1;
    }
    for (int64_t i = 0; i < wh->n; i++) {
        int64_t off = find_in_word(s, wh->v[i], a, b);
        if (off >= 0) {
            *ow = wh->v[i];
            *ooff = (int32_t)off;
            if (i) {  /* the words before it no longer hold the pair: drop them */
                memmove(wh->v, wh->v + i, (size_t)(wh->n - i) * sizeof(int32_t));
                wh->n -= i;
            }
            return 0;
        }
    }
    PyErr_Format(PyExc_AssertionError, "pair (%d, %d) has a count but no occurrence", a, b);
    return -1;
}

static PyObject *State_pop_best(State *s, PyObject *Py_UNUSED(ignored)) {
    CHECK_READY(s);
    while (s->heap_n) {
        Entry e = s->heap[0];
        Pair *p = &s->pairs[e.pair];
        if (!p->count) {  /* merged away, or its last occurrence is gone */
            heap_pop(s);
            continue;
        }
        Entry fresh;
        if (make_entry(s, e.pair, &fresh) < 0) return NULL;
        if (fresh.prio != e.prio || fresh.fw != e.fw || fresh.foff != e.foff) {
            heap_replace(s, &fresh);  /* its count fell (or bound moved) since */
            continue;
        }
        if (s->first_rule) {
            int32_t tw, toff;
            if (true_first(s, e.pair, e.fw, e.foff, &tw, &toff) < 0) return NULL;
            p = &s->pairs[e.pair];
            if (tw != e.fw || toff != e.foff) {  /* the stored bound was too low */
                p->fw = tw;
                p->foff = toff;
                e.fw = tw;
                e.foff = toff;
                heap_replace(s, &e);
                continue;
            }
        }
        if (p->count < s->min_freq) {
            if (!s->scored) {  /* counts come out in order: nothing better is left */
                s->stop = 2;
                Py_RETURN_NONE;
            }
            heap_pop(s);
            s->filtered = 1;
            continue;
        }
        heap_pop(s);
        return Py_BuildValue("(ii)", p->a, p->b);
    }
    s->stop = s->filtered ? 2 : 1;
    Py_RETURN_NONE;
}

/* ---- merging -------------------------------------------------------------------------- */
/* pc[(x, y)] -= c, deleting at zero; a pair left with a count joins `dropped` (scored). */
static int pair_dec(State *s, int32_t x, int32_t y, int64_t c) {
    int32_t qi = pair_find(s, x, y);
    if (qi < 0 || !s->pairs[qi].count) {
        PyErr_Format(PyExc_KeyError, "(%d, %d)", x, y);
        return -1;
    }
    Pair *q = &s->pairs[qi];
    q->count -= c;
    if (q->count && s->scored && q->pmark != s->stamp) {
        q->pmark = s->stamp;
        if (ivec_push(&s->dropped, qi) < 0) return -1;
    }
    return 0;
}

/* pc[(x, y)] += c, remember it grew, index word w, lower the first bound to (w, off). */
static int pair_inc(State *s, int32_t x, int32_t y, int64_t c, int32_t w, int32_t off) {
    int32_t qi = pair_get(s, x, y);
    if (qi < 0) return -1;
    Pair *q = &s->pairs[qi];
    q->count += c;
    if (q->mark != s->stamp) {
        q->mark = s->stamp;
        if (ivec_push(&s->grown, qi) < 0) return -1;
    }
    if (where_add(q, w) < 0) return -1;
    if (s->first_rule && (w < q->fw || (w == q->fw && off < q->foff))) {
        q->fw = w;
        q->foff = off;
    }
    return 0;
}

static int64_t merge_words(State *s, int32_t pi, int32_t a, int32_t b, int32_t t,
                           int32_t step) {
    /* detach the pair's word list first (Python: where.pop): new entries start afresh */
    IVec list = s->pairs[pi].where;
    memset(&s->pairs[pi].where, 0, sizeof(IVec));
    s->pairs[pi].where_sorted = 1;
    int first_rule = s->first_rule;
    const int64_t *units = s->units;
    int64_t replaced = 0;
    for (int64_t li = 0; li < list.n; li++) {
        int32_t w = list.v[li];
        int32_t *word = s->wdata + s->wstart[w], *nodes = s->wnodes + s->wstart[w];
        int32_t n = s->wlen[w];
        int64_t c = s->wcount[w];
        int32_t *out = s->scratch, *nout = s->nscratch;
        int32_t k = 0, i = 0, sites = 0;
        int64_t off = 0;  /* unit offset of word[i] (first rule only) */
        while (i < n - 1) {
            int32_t j = i;
            while (j < n - 1 && word[j] != a) j++;
            if (j >= n - 1) break;
            if (word[j + 1] != b) {
                for (int32_t m = i; m <= j; m++) {
                    if (first_rule) off += units[word[m]];
                    nout[k] = nodes[m];
                    out[k++] = word[m];
                }
                i = j + 1;
                continue;
            }
            for (int32_t m = i; m < j; m++) {
                if (first_rule) off += units[word[m]];
                nout[k] = nodes[m];
                out[k++] = word[m];
            }
            if (j) {  /* the left neighbour x: (x, a) -> (x', t) */
                if (pair_dec(s, word[j - 1], a, c) < 0) goto fail;
                int32_t x = out[k - 1];
                if (pair_inc(s, x, t, c, w, first_rule ? (int32_t)(off - units[x]) : 0) < 0)
                    goto fail;
            }
            if (j + 2 < n) {  /* the right neighbour y: (b, y) -> (t, y) */
                int32_t y = word[j + 2];
                if (!(y == a && j + 3 < n && word[j + 3] == b)) {
                    if (pair_dec(s, b, y, c) < 0) goto fail;
                    if (pair_inc(s, t, y, c, w, (int32_t)off) < 0) goto fail;
                }
                /* else: the next site's left-neighbour step turns (b, a) into (t, t) */
            }
            Pair *p = &s->pairs[pi];
            if (!p->count) {
                PyErr_Format(PyExc_KeyError, "(%d, %d)", a, b);
                goto fail;
            }
            p->count -= c;
            /* the forest: a new node over the two, which end here */
            int32_t node = (int32_t)s->n_token.n;
            if (add_node(s, t, w, s->n_start.v[nodes[j]], step) < 0) goto fail;
            s->n_until.v[nodes[j]] = step;
            s->n_until.v[nodes[j + 1]] = step;
            nout[k] = node;
            out[k++] = t;
            if (first_rule) off += units[a] + units[b];
            sites++;
            i = j + 2;
        }
        if (!sites) continue;  /* a stale index entry: this word no longer holds the pair */
        for (int32_t m = i; m < n; m++) {
            nout[k] = nodes[m];
            out[k++] = word[m];
        }
        memcpy(word, out, (size_t)k * sizeof(int32_t));
        memcpy(nodes, nout, (size_t)k * sizeof(int32_t));
        s->wlen[w] = k;
        replaced += (int64_t)sites * c;
    }
    ivec_free(&list);
    return replaced;
fail:
    ivec_free(&list);
    return -1;
}

static int push_pair(State *s, int32_t qi) {
    Pair *q = &s->pairs[qi];
    if (q->pmark == -2 - s->stamp) return 0;  /* already queued in this merge */
    q->pmark = -2 - s->stamp;
    return ivec_push(&s->push, qi);
}

/* merge(a, b, t, step) -> (count, score, replaced). t is an existing id, or n_vocab for a
 * new token (it then spans units[a] + units[b] initial symbols). */
static PyObject *State_merge(State *s, PyObject *args) {
    int a, b, t, step;
    if (!PyArg_ParseTuple(args, "iiii", &a, &b, &t, &step)) return NULL;
    CHECK_READY(s);
    if (a < 0 || b < 0 || a >= s->n_vocab || b >= s->n_vocab || t < 0 || t > s->n_vocab) {
        PyErr_SetString(PyExc_ValueError, "token id out of range");
        return NULL;
    }
    int32_t pi = pair_find(s, a, b);
    int64_t count = pi >= 0 ? s->pairs[pi].count : 0;
    double score = 0.0;
    if (count && priority(s, pi, &score) < 0) return NULL;
    if (t == s->n_vocab && add_token(s, s->units[a] + s->units[b]) < 0) return NULL;
    if (s->stamp >= (1 << 28)) {
        PyErr_SetString(PyExc_OverflowError, "too many merges");
        return NULL;
    }
    s->stamp++;
    s->grown.n = s->dropped.n = s->push.n = 0;
    int64_t replaced = 0;
    if (pi >= 0 && (replaced = merge_words(s, pi, a, b, t, step)) < 0) return NULL;
    if (s->scored) {  /* scores rise when a unit count falls: every pair of a, b, t moves */
        s->uc[a] -= replaced;
        s->uc[b] -= replaced;
        s->uc[t] += replaced;
        for (int64_t i = 0; i < s->grown.n; i++) {
            int32_t qi = s->grown.v[i];
            int32_t x = s->pairs[qi].a, y = s->pairs[qi].b;
            if (ivec_push(&s->pairs_of[x], qi) < 0) return NULL;
            if (y != x && ivec_push(&s->pairs_of[y], qi) < 0) return NULL;
        }
        int32_t syms[3] = {a, b, t};
        for (int m = 0; m < 3; m++) {
            int32_t sym = syms[m];
            if ((m == 1 && sym == a) || (m == 2 && (sym == a || sym == b))) continue;
            /* keep each live pair once; a second stamp dedups within this list */
            IVec *po = &s->pairs_of[sym];
            int32_t k = 0, tag = -((s->stamp * 4 + m) + 1) * 2;
            for (int64_t i = 0; i < po->n; i++) {
                int32_t qi = po->v[i];
                Pair *q = &s->pairs[qi];
                if (!q->count || q->mark == tag) continue;
                q->mark = tag;
                po->v[k++] = qi;
            }
            po->n = k;
            for (int64_t i = 0; i < k; i++)
                if (push_pair(s, po->v[i]) < 0) return NULL;
        }
        for (int64_t i = 0; i < s->dropped.n; i++)
            if (push_pair(s, s->dropped.v[i]) < 0) return NULL;
    }
    for (int64_t i = 0; i < s->grown.n; i++)
        if (push_pair(s, s->grown.v[i]) < 0) return NULL;
    for (int64_t i = 0; i < s->push.n; i++) {
        int32_t qi = s->push.v[i];
        if (!s->pairs[qi].count) continue;
        Entry e;
        if (make_entry(s, qi, &e) < 0 || heap_push(s, &e) < 0) return NULL;
    }
    return Py_BuildValue("(LdL)", (long long)count, score, (long long)replaced);
}

/* ---- results ------------------------------------------------------------------------ */
typedef struct {
    int64_t key;        /* (position << 32) | step: the order of nodes within a word */
    int32_t node;
} Keyed;

static int cmp_keyed(const void *x, const void *y) {
    int64_t a = ((const Keyed *)x)->key, b = ((const Keyed *)y)->key;
    return (a > b) - (a < b);
}

static PyObject *gather(const IVec *x, const Keyed *order, int64_t n) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * 4));
    if (!out) return NULL;
    int32_t *dst = (int32_t *)PyBytes_AS_STRING(out);
    for (int64_t i = 0; i < n; i++) dst[i] = x->v[order[i].node];
    return out;
}

/* forest() -> (token, word, step, until): int32 bytes, one item per node, sorted by word,
 * position and step (what SplitLog wants); the state is spent afterwards. */
static PyObject *State_forest(State *s, PyObject *Py_UNUSED(ignored)) {
    CHECK_READY(s);
    int64_t n = s->n_token.n, nw = s->n_words;
    int64_t *fill = PyMem_RawCalloc((size_t)nw + 1, sizeof(int64_t));
    Keyed *order = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(Keyed));
    if (!fill || !order) {
        PyMem_RawFree(fill);
        PyMem_RawFree(order);
        return PyErr_NoMemory();
    }
    /* bucket the nodes by word (counting sort), then sort each word's few nodes */
    for (int64_t i = 0; i < n; i++) fill[s->n_word.v[i] + 1]++;
    for (int64_t w = 0; w < nw; w++) fill[w + 1] += fill[w];
    for (int64_t i = 0; i < n; i++) {
        Keyed *k = &order[fill[s->n_word.v[i]]++];
        k->key = ((int64_t)s->n_start.v[i] << 32) | (uint32_t)s->n_step.v[i];
        k->node = (int32_t)i;
    }
    for (int64_t w = 0, lo = 0; w < nw; w++) {  /* fill[w] is now the end of word w */
        int64_t hi = fill[w], len = hi - lo;
        if (len > 24) {
            qsort(order + lo, (size_t)len, sizeof(Keyed), cmp_keyed);
        } else {
            for (int64_t i = lo + 1; i < hi; i++) {
                Keyed k = order[i];
                int64_t j = i;
                while (j > lo && order[j - 1].key > k.key) {
                    order[j] = order[j - 1];
                    j--;
                }
                order[j] = k;
            }
        }
        lo = hi;
    }
    PyMem_RawFree(fill);
    IVec *parts[4] = {&s->n_token, &s->n_word, &s->n_step, &s->n_until};
    PyObject *res = PyTuple_New(4);
    for (int i = 0; res && i < 4; i++) {
        PyObject *b = gather(parts[i], order, n);
        if (!b) {
            Py_CLEAR(res);
            break;
        }
        PyTuple_SET_ITEM(res, i, b);
        ivec_free(parts[i]);  /* free as we go: the peak stays near one copy */
    }
    PyMem_RawFree(order);
    if (res) State_clear(s);
    return res;
}

static PyObject *State_stop_reason(State *s, PyObject *Py_UNUSED(ignored)) {
    if (s->stop == 2) return PyUnicode_FromString("min_frequency");
    if (s->stop == 1) return PyUnicode_FromString("no_pairs");
    Py_RETURN_NONE;
}

static PyObject *State_initial_tokens(State *s, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(s->initial_tokens);
}

static PyMethodDef State_methods[] = {
    {"pop_best", (PyCFunction)State_pop_best, METH_NOARGS,
     "The pair to merge next as (left_id, right_id), or None (see stop_reason)."},
    {"merge", (PyCFunction)State_merge, METH_VARARGS,
     "merge(a, b, t, step) -> (count, score, replaced)."},
    {"forest", (PyCFunction)State_forest, METH_NOARGS,
     "The merge forest as int32 bytes (token, word, step, until), sorted; ends the state."},
    {"stop_reason", (PyCFunction)State_stop_reason, METH_NOARGS,
     "'no_pairs' or 'min_frequency' once pop_best returned None."},
    {"initial_tokens", (PyCFunction)State_initial_tokens, METH_NOARGS,
     "Symbols in the corpus before any merge, weighted by word counts."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bpeviz._merge.State",
    .tp_basicsize = sizeof(State),
    .tp_dealloc = (destructor)State_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The merge loop's state: pair counts, word index, heap and split log.",
    .tp_methods = State_methods,
    .tp_init = (initproc)State_init,
    .tp_new = PyType_GenericNew,
};

/* ---- snapshot helpers (bpeviz.snapshot; NumPy versions there are the reference) ---- */
static int int_view(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *what) {
    return get_buffer(obj, view, itemsize, what);
}

/* live(token, word, step, until, k) -> (ids, word_of): the nodes with step <= k < until,
 * as int32 and int64 bytearrays. */
static PyObject *snap_live(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *to, *wo, *so, *uo;
    int k;
    if (!PyArg_ParseTuple(args, "OOOOi", &to, &wo, &so, &uo, &k)) return NULL;
    Py_buffer tb, wb, sb, ub;
    if (int_view(to, &tb, 4, "token") < 0) return NULL;
    if (int_view(wo, &wb, 4, "word") < 0) { PyBuffer_Release(&tb); return NULL; }
    if (int_view(so, &sb, 4, "step") < 0) {
        PyBuffer_Release(&tb); PyBuffer_Release(&wb); return NULL;
    }
    if (int_view(uo, &ub, 4, "until") < 0) {
        PyBuffer_Release(&tb); PyBuffer_Release(&wb); PyBuffer_Release(&sb); return NULL;
    }
    PyObject *res = NULL, *ids = NULL, *words = NULL;
    Py_ssize_t n = tb.len / 4;
    if (wb.len / 4 != n || sb.len / 4 != n || ub.len / 4 != n) {
        PyErr_SetString(PyExc_ValueError, "the forest's arrays differ in length");
        goto done;
    }
    const int32_t *token = tb.buf, *word = wb.buf, *step = sb.buf, *until = ub.buf;
    Py_ssize_t live = 0;
    for (Py_ssize_t i = 0; i < n; i++) live += step[i] <= k && until[i] > k;
    ids = PyByteArray_FromStringAndSize(NULL, live * 4);
    words = PyByteArray_FromStringAndSize(NULL, live * 8);
    if (!ids || !words) goto done;
    int32_t *out_ids = (int32_t *)PyByteArray_AS_STRING(ids);
    int64_t *out_words = (int64_t *)PyByteArray_AS_STRING(words);
    for (Py_ssize_t i = 0, j = 0; i < n; i++) {
        if (step[i] <= k && until[i] > k) {
            out_ids[j] = token[i];
            out_words[j++] = word[i];
        }
    }
    res = PyTuple_Pack(2, ids, words);
done:
    Py_XDECREF(ids);
    Py_XDECREF(words);
    PyBuffer_Release(&tb); PyBuffer_Release(&wb); PyBuffer_Release(&sb); PyBuffer_Release(&ub);
    return res;
}

/* splits(words, vocab, ids, word_of) -> {word: tuple of tokens}, ids and word_of as from
 * live() (word_of ascending). */
static PyObject *snap_splits(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *words, *vocab, *io, *wo;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyTuple_Type, &words, &PyTuple_Type, &vocab, &io,
                          &wo))
        return NULL;
    Py_buffer ib, wb;
    if (int_view(io, &ib, 4, "ids") < 0) return NULL;
    if (int_view(wo, &wb, 8, "word_of") < 0) { PyBuffer_Release(&ib); return NULL; }
    const int32_t *ids = ib.buf;
    const int64_t *word_of = wb.buf;
    Py_ssize_t n = ib.len / 4, nw = PyTuple_GET_SIZE(words), nv = PyTuple_GET_SIZE(vocab);
    PyObject *res = wb.len / 8 == n ? PyDict_New() : NULL;
    if (!res && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "ids and word_of differ in length");
    Py_ssize_t pos = 0;
    for (Py_ssize_t w = 0; res && w < nw; w++) {
        Py_ssize_t end = pos;
        while (end < n && word_of[end] == w) end++;
        PyObject *split = PyTuple_New(end - pos);
        if (!split) { Py_CLEAR(res); break; }
        for (Py_ssize_t i = pos; i < end; i++) {
            if (ids[i] < 0 || ids[i] >= nv) {
                PyErr_SetString(PyExc_ValueError, "a token id is outside the vocabulary");
                Py_DECREF(split);
                Py_CLEAR(res);
                break;
            }
            PyObject *token = PyTuple_GET_ITEM(vocab, ids[i]);
            Py_INCREF(token);
            PyTuple_SET_ITEM(split, i - pos, token);
        }
        if (!res) break;
        int err = PyDict_SetItem(res, PyTuple_GET_ITEM(words, w), split);
        Py_DECREF(split);
        if (err < 0) Py_CLEAR(res);
        pos = end;
    }
    PyBuffer_Release(&ib);
    PyBuffer_Release(&wb);
    return res;
}

/* pair_counts(ids, word_of, counts) -> (keys, counts): every adjacent pair within a word,
 * as int64 left * 2**32 + right, with its count weighted by the word counts, in order of
 * first occurrence; int64 bytearrays. */
static PyObject *snap_pair_counts(PyObject *Py_UNUSED(m), PyObject *args) {
    PyObject *io, *wo, *co;
    if (!PyArg_ParseTuple(args, "OOO", &io, &wo, &co)) return NULL;
    Py_buffer ib, wb, cb;
    if (int_view(io, &ib, 4, "ids") < 0) return NULL;
    if (int_view(wo, &wb, 8, "word_of") < 0) { PyBuffer_Release(&ib); return NULL; }
    if (int_view(co, &cb, 8, "counts") < 0) {
        PyBuffer_Release(&ib); PyBuffer_Release(&wb); return NULL;
    }
    const int32_t *ids = ib.buf;
    const int64_t *word_of = wb.buf, *counts = cb.buf;
    Py_ssize_t n = ib.len / 4, nw = cb.len / 8;
    PyObject *res = NULL, *keys_out = NULL, *counts_out = NULL;
    uint64_t *hkeys = NULL;
    int32_t *hvals = NULL;
    uint64_t *keys = NULL;
    int64_t *sums = NULL;
    int64_t groups = 0, cap = 16;
    while (cap < 2 * (int64_t)n) cap *= 2;
    hkeys = PyMem_RawMalloc((size_t)cap * sizeof(uint64_t));
    hvals = PyMem_RawMalloc((size_t)cap * sizeof(int32_t));
    keys = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(uint64_t));
    sums = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int64_t));
    if (!hkeys || !hvals || !keys || !sums) { PyErr_NoMemory(); goto done; }
    if (wb.len / 8 != n) {
        PyErr_SetString(PyExc_ValueError, "ids and word_of differ in length");
        goto done;
    }
    memset(hvals, 0xff, (size_t)cap * sizeof(int32_t));
    uint64_t mask = (uint64_t)cap - 1;
    for (Py_ssize_t i = 0; i + 1 < n; i++) {
        if (word_of[i] != word_of[i + 1]) continue;
        if (word_of[i] < 0 || word_of[i] >= nw) {
            PyErr_SetString(PyExc_ValueError, "a word index is outside the corpus");
            goto done;
        }
        uint64_t key = pair_key(ids[i], ids[i + 1]);
        uint64_t h = mix(key) & mask;
        while (hvals[h] >= 0 && hkeys[h] != key) h = (h + 1) & mask;
        if (hvals[h] < 0) {
            hkeys[h] = key;
            hvals[h] = (int32_t)groups;
            keys[groups] = key;
            sums[groups++] = 0;
        }
        sums[hvals[h]] += counts[word_of[i]];
    }
    keys_out = PyByteArray_FromStringAndSize((const char *)keys, (Py_ssize_t)(groups * 8));
    counts_out = PyByteArray_FromStringAndSize((const char *)sums, (Py_ssize_t)(groups * 8));
    if (keys_out && counts_out) res = PyTuple_Pack(2, keys_out, counts_out);
done:
    Py_XDECREF(keys_out);
    Py_XDECREF(counts_out);
    PyMem_RawFree(hkeys);
    PyMem_RawFree(hvals);
    PyMem_RawFree(keys);
    PyMem_RawFree(sums);
    PyBuffer_Release(&ib); PyBuffer_Release(&wb); PyBuffer_Release(&cb);
    return res;
}

static PyMethodDef module_methods[] = {
    {"live", snap_live, METH_VARARGS,
     "live(token, word, step, until, k) -> (ids, word_of) bytearrays (int32, int64)."},
    {"splits", snap_splits, METH_VARARGS,
     "splits(words, vocab, ids, word_of) -> {word: tuple of tokens}."},
    {"pair_counts", snap_pair_counts, METH_VARARGS,
     "pair_counts(ids, word_of, counts) -> (keys, counts) int64 bytearrays, first-seen order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef merge_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bpeviz._merge",
    .m_doc = "The compiled merge loop of bpeviz.training (see _PairState there).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__merge(void) {
    if (PyType_Ready(&StateType) < 0) return NULL;
    PyObject *m = PyModule_Create(&merge_module);
    if (!m) return NULL;
    Py_INCREF(&StateType);
    if (PyModule_AddObject(m, "State", (PyObject *)&StateType) < 0) {
        Py_DECREF(&StateType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
