/* bpeviz.engine._merge: the incremental merge loop of bpeviz.core.training, compiled.
 *
 * The pair counts, word index, heap and choosing rules are a line-for-line port of the
 * pure-Python engine ``PairState`` in bpeviz/engine/python.py, which stays the reference:
 * the engine tests train with both and compare every merge, count,
 * score and forest node. Read the Python version first; the comments here only cover
 * what C adds (the hash table, the heap, the vectors, the forest kept per symbol).
 * The module also has three snapshot helpers, tested against NumPy code in
 * bpeviz/core/snapshot.py, and two encoding types (Ranks, Coder; see "encoding" below),
 * tested against the pure-Python encoder in bpeviz/core/encoding.py.
 *
 * State: every word's current split (int32 ids, rewritten in place) and the node of the
 * merge forest behind each of its symbols, pair counts in an open-addressing hash table
 * from (left, right) to a pair record, each pair's list of words that may hold it (a
 * superset: stale entries are skipped), a first-occurrence lower bound per pair (tie
 * rule "first"), a binary heap with lazy deletion, and the forest itself: one node per
 * initial symbol and per merge site (token, word, position, step made, step merged).
 * With `spell` keys, ties between equal counts compare the tokens' spellings (the rule
 * of Hugging Face's parity trainer, bpeviz.algorithms.parity_train), PairState's `spell`.
 *
 * Built by `python setup.py build_ext --inplace` (or `pip install -e .`); bpeviz falls
 * back to the Python engine when it is not built.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* ---- large buffers ------------------------------------------------------------------ */
/* A buffer of many megabytes is written once, page by page: each 4 KB page's first
 * write is a fault into the kernel (a few microseconds in a VM, tens of milliseconds
 * over a forest of millions of nodes). Where the kernel gives huge pages on request
 * (Linux, transparent huge pages in "madvise" mode), the buffer's whole 2 MB pages are
 * asked for as such: one fault each. Smaller buffers, and other systems, are left as
 * they are; the memory is the same either way. */
#define HUGE_PAGE ((uintptr_t)2 << 20)
static void advise_huge(void *p, size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n < 2 * HUGE_PAGE) return;
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);  /* a hint: failure is fine */
#else
    (void)p; (void)n;
#endif
}

static void *big_malloc(size_t n) {
    void *p = PyMem_RawMalloc(n);
    if (p) advise_huge(p, n);
    return p;
}

/* ---- growable int32 vector ------------------------------------------------------ */
/* With cap 0 and v set, the vector borrows a slice of a shared buffer (a pair's word
 * list as count_pairs lays them all out in one): it may be rewritten in place, and is
 * copied out to its own memory when it grows; it is never freed on its own. */
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
    int borrowed = !x->cap && x->v;
    int32_t *v = borrowed ? PyMem_RawMalloc((size_t)cap * sizeof(int32_t))
                          : PyMem_RawRealloc(x->v, (size_t)cap * sizeof(int32_t));
    if (!v) { PyErr_NoMemory(); return -1; }
    advise_huge(v + x->n, (size_t)(cap - x->n) * sizeof(int32_t));  /* the part not yet written */
    if (borrowed) memcpy(v, x->v, (size_t)x->n * sizeof(int32_t));
    x->v = v;
    x->cap = (int32_t)cap;
    return 0;
}

static inline int ivec_push(IVec *x, int32_t val) {
    if (x->n >= x->cap && ivec_reserve(x, x->n + 1) < 0) return -1;  /* >=: a borrowed one */
    x->v[x->n++] = val;
    return 0;
}

static void ivec_free(IVec *x) {
    if (x->cap) PyMem_RawFree(x->v);
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
    int32_t wlast;      /* count_pairs: the last word it counted the pair in */
} Pair;

typedef struct {        /* a heap entry; ties on prio compare the pair's (a, b) */
    union {             /* higher pops first: */
        double prio;    /* the WordPiece score (scored) ... */
        int64_t count;  /* ... or the count itself, compared exactly (a double would
                           tie counts past 2**53 that Python's ints tell apart) */
    };
    int32_t fw, foff;   /* the first-occurrence bound when pushed (first rule) */
    int32_t pair;
} Entry;

typedef struct {
    PyObject_HEAD
    int first_rule, scored;
    int64_t min_freq;
    int filtered;
    int stop;           /* 0 none, 1 no_pairs, 2 min_frequency */
    int counted;        /* the pair table and heap are built (count_pairs), on first use */
    /* words */
    int64_t n_words;
    int32_t *wdata;
    int64_t *wstart;
    int32_t *wlen;
    int64_t *wcount;
    int32_t *wnodes;    /* the forest node of each current symbol, laid out like wdata */
    /* tokens */
    int64_t n_vocab, vocab_cap;
    int64_t *units;     /* initial symbols a token spans */
    int64_t *uc;        /* weighted count of each token (WordPiece score) */
    int64_t *sp_off;    /* with spell: where each token's keys start in `spell` (its
                           length is units[token]) */
    IVec spell;         /* the keys of every token's spelling, end to end */
    int spelled;
    IVec *pairs_of;     /* token -> pairs holding it (scored only) */
    /* pair table */
    Pair *pairs;
    int64_t n_pairs, pairs_cap;
    int32_t *where_pool; /* the word lists count_pairs made, end to end (borrowed) */
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
    int64_t n_flat;     /* initial symbols: each is at start = its index in the corpus */
    int leaves_pending; /* the initial symbols' nodes are not made yet (ensure_leaves) */
    struct Shared *shared; /* after a replay by segments: the stretches' inner nodes */
} State;

static void shared_free(State *s);

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
    p->wlast = -1;
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
    if (s->scored) {
        if (priority(s, pi, &e->prio) < 0) return -1;
    } else {
        e->count = p->count;
    }
    e->fw = s->first_rule ? p->fw : 0;
    e->foff = s->first_rule ? p->foff : 0;
    e->pair = pi;
    return 0;
}

/* With spell: > 0 when token x's keys sort after y's (a longer spelling after its own
 * prefix), < 0 before, 0 for the same token. */
static int spell_cmp(const State *s, int32_t x, int32_t y) {
    if (x == y) return 0;
    const int32_t *p = s->spell.v + s->sp_off[x], *q = s->spell.v + s->sp_off[y];
    int64_t n = s->units[x], m = s->units[y], k = n < m ? n : m;
    for (int64_t i = 0; i < k; i++)
        if (p[i] != q[i]) return p[i] > q[i] ? 1 : -1;
    return (n > m) - (n < m);
}

/* x pops before y: higher priority, then (first rule) the earlier occurrence, then
 * (spell) the later spelling, then ids */
static inline int before(const State *s, const Entry *x, const Entry *y) {
    if (s->scored) {
        if (x->prio != y->prio) return x->prio > y->prio;
    } else if (x->count != y->count) {
        return x->count > y->count;
    }
    if (s->first_rule) {
        if (x->fw != y->fw) return x->fw < y->fw;
        if (x->foff != y->foff) return x->foff < y->foff;
    }
    const Pair *px = &s->pairs[x->pair], *py = &s->pairs[y->pair];
    if (s->spelled) {
        int c = spell_cmp(s, px->a, py->a);
        if (!c) c = spell_cmp(s, px->b, py->b);
        if (c) return c > 0;
    }
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

/* Room for `extra` more nodes in every forest vector, for put_node. */
static int reserve_nodes(State *s, int64_t extra) {
    int64_t need = (int64_t)s->n_token.n + extra;
    if (need >= INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many merge sites");
        return -1;
    }
    if (ivec_reserve(&s->n_token, need) < 0 || ivec_reserve(&s->n_word, need) < 0 ||
        ivec_reserve(&s->n_start, need) < 0 || ivec_reserve(&s->n_step, need) < 0 ||
        ivec_reserve(&s->n_until, need) < 0)
        return -1;
    return 0;
}

/* A new node, in room reserve_nodes made; its index. */
static inline int32_t put_node(State *s, int32_t token, int32_t w, int32_t start,
                               int32_t step) {
    int32_t i = s->n_token.n++;
    s->n_token.v[i] = token;
    s->n_word.v[i] = w;
    s->n_start.v[i] = start;
    s->n_step.v[i] = step;
    s->n_until.v[i] = NEVER;
    s->n_word.n = s->n_start.n = s->n_step.n = s->n_until.n = s->n_token.n;
    return i;
}

static int add_node(State *s, int32_t token, int32_t w, int32_t start, int32_t step) {
    if (reserve_nodes(s, 1) < 0) return -1;
    put_node(s, token, w, start, step);
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
        int64_t *so = PyMem_RawRealloc(s->sp_off, (size_t)cap * sizeof(int64_t));
        if (!so) { PyErr_NoMemory(); return -1; }
        s->sp_off = so;
        s->vocab_cap = cap;
    }
    s->units[s->n_vocab] = units;
    s->uc[s->n_vocab] = 0;
    s->sp_off[s->n_vocab] = s->spell.n;
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
    if (s->pairs_of)
        for (int64_t i = 0; i < s->n_vocab; i++) ivec_free(&s->pairs_of[i]);
    PyMem_RawFree(s->pairs_of); s->pairs_of = NULL;
    PyMem_RawFree(s->units); s->units = NULL;
    PyMem_RawFree(s->uc); s->uc = NULL;
    PyMem_RawFree(s->sp_off); s->sp_off = NULL;
    ivec_free(&s->spell);
    s->spelled = 0;
    s->n_vocab = s->vocab_cap = 0;
    if (s->pairs)
        for (int64_t i = 0; i < s->n_pairs; i++) ivec_free(&s->pairs[i].where);
    PyMem_RawFree(s->pairs); s->pairs = NULL;
    s->n_pairs = s->pairs_cap = 0;
    PyMem_RawFree(s->where_pool); s->where_pool = NULL;
    PyMem_RawFree(s->hkeys); s->hkeys = NULL;
    PyMem_RawFree(s->hvals); s->hvals = NULL;
    PyMem_RawFree(s->heap); s->heap = NULL;
    s->heap_n = s->heap_cap = 0;
    ivec_free(&s->grown); ivec_free(&s->dropped); ivec_free(&s->push);
    ivec_free(&s->n_token); ivec_free(&s->n_word); ivec_free(&s->n_start);
    ivec_free(&s->n_step); ivec_free(&s->n_until);
    shared_free(s);
    s->counted = 0;
    s->leaves_pending = 0;
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

/* The pair table, the unit counts (scored), each token's pairs (scored) and the heap,
 * counted afresh from the words as they stand; the old table, if any, is dropped. */
static int count_pairs(State *s) {
    if (s->pairs)
        for (int64_t i = 0; i < s->n_pairs; i++) ivec_free(&s->pairs[i].where);
    PyMem_RawFree(s->where_pool);
    s->where_pool = NULL;
    s->n_pairs = 0;
    memset(s->hvals, 0xff, (size_t)s->hcap * sizeof(int32_t));
    PyMem_RawFree(s->heap);
    s->heap = NULL;
    s->heap_n = s->heap_cap = 0;
    for (int64_t i = 0; i < s->n_vocab; i++) {
        s->uc[i] = 0;
        ivec_free(&s->pairs_of[i]);
    }
    /* In passes, for memory's sake: every pair occurrence is looked up in the table
     * (the slot a few occurrences ahead fetched meanwhile), then its record counted (the
     * record a few ahead fetched), noting each occurrence's pair, or -1 when the word
     * already listed it; then every pair's word list is written as a slice of one buffer
     * (a vector of its own per pair cost a miss and an allocation per pair). */
    int64_t n_occ = 0;
    for (int64_t w = 0; w < s->n_words; w++) n_occ += s->wlen[w] > 1 ? s->wlen[w] - 1 : 0;
    int32_t *occ = PyMem_RawMalloc((size_t)(n_occ ? n_occ : 1) * sizeof(int32_t));
    uint64_t *keys = PyMem_RawMalloc((size_t)(n_occ ? n_occ : 1) * sizeof(uint64_t));
    if (!occ || !keys) { PyMem_RawFree(occ); PyMem_RawFree(keys); PyErr_NoMemory(); return -1; }
    int64_t k = 0;
    for (int64_t w = 0; w < s->n_words; w++) {
        const int32_t *word = s->wdata + s->wstart[w];
        for (int32_t i = 0; i + 1 < s->wlen[w]; i++) keys[k++] = pair_key(word[i], word[i + 1]);
    }
#define AHEAD 8
    for (k = 0; k < n_occ; k++) {
        if (k + AHEAD < n_occ) {
            uint64_t h = mix(keys[k + AHEAD]) & ((uint64_t)s->hcap - 1);
            __builtin_prefetch(&s->hvals[h]);
            __builtin_prefetch(&s->hkeys[h]);
        }
        int32_t pi = pair_get(s, (int32_t)(keys[k] >> 32), (int32_t)(uint32_t)keys[k]);
        if (pi < 0) { PyMem_RawFree(occ); PyMem_RawFree(keys); return -1; }
        occ[k] = pi;
    }
    PyMem_RawFree(keys);
    k = 0;
    for (int64_t w = 0; w < s->n_words; w++) {
        const int32_t *word = s->wdata + s->wstart[w];
        int64_t c = s->wcount[w], off = 0;  /* off: the unit offset of word[i] */
        for (int32_t i = 0; i + 1 < s->wlen[w]; i++, k++) {
            if (k + AHEAD < n_occ) __builtin_prefetch(&s->pairs[occ[k + AHEAD]]);
            Pair *p = &s->pairs[occ[k]];
            if (!p->count) {  /* new: its first occurrence */
                p->fw = (int32_t)w;
                p->foff = (int32_t)off;
            }
            p->count += c;
            if (p->wlast != w) {  /* words come in order: a repeat is the last one */
                p->wlast = (int32_t)w;
                p->where.n++;
            } else {
                occ[k] = -1;
            }
            off += s->units[word[i]];
        }
        if (s->scored)
            for (int32_t i = 0; i < s->wlen[w]; i++) s->uc[word[i]] += c;
    }
#undef AHEAD
    int64_t listed = 0;
    for (int64_t pi = 0; pi < s->n_pairs; pi++) listed += s->pairs[pi].where.n;
    int32_t *fill = PyMem_RawMalloc((size_t)(s->n_pairs ? s->n_pairs : 1) * sizeof(int32_t));
    s->where_pool = PyMem_RawMalloc((size_t)(listed ? listed : 1) * sizeof(int32_t));
    if (!fill || !s->where_pool) {
        PyMem_RawFree(occ); PyMem_RawFree(fill);
        for (int64_t pi = 0; pi < s->n_pairs; pi++) s->pairs[pi].where.n = 0;
        PyErr_NoMemory();
        return -1;
    }
    int64_t at = 0;
    for (int64_t pi = 0; pi < s->n_pairs; pi++) {
        Pair *p = &s->pairs[pi];
        fill[pi] = (int32_t)at;
        p->where.v = s->where_pool + at;  /* borrowed: cap stays 0 */
        at += p->where.n;
        p->wlast = -1;
    }
    k = 0;
    for (int64_t w = 0; w < s->n_words; w++)
        for (int32_t i = 0; i + 1 < s->wlen[w]; i++, k++)
            if (occ[k] >= 0) s->where_pool[fill[occ[k]]++] = (int32_t)w;
    PyMem_RawFree(occ);
    PyMem_RawFree(fill);
    if (s->scored) {
        for (int32_t pi = 0; pi < s->n_pairs; pi++) {
            Pair *p = &s->pairs[pi];
            if (ivec_push(&s->pairs_of[p->a], pi) < 0) return -1;
            if (p->b != p->a && ivec_push(&s->pairs_of[p->b], pi) < 0) return -1;
        }
    }
    s->heap_cap = s->n_pairs ? s->n_pairs : 1;
    s->heap = PyMem_RawMalloc((size_t)s->heap_cap * sizeof(Entry));
    if (!s->heap) { PyErr_NoMemory(); return -1; }
    for (int32_t pi = 0; pi < s->n_pairs; pi++)
        if (make_entry(s, pi, &s->heap[pi]) < 0) return -1;
    s->heap_n = s->n_pairs;
    for (int64_t i = s->heap_n / 2 - 1; i >= 0; i--) sift_down(s, i);
    s->counted = 1;
    return 0;
}

/* The pair table, counted when first needed: a replay made word by word (State_replay)
 * counts it once afterwards, so the initial words' pairs are never counted for nothing. */
static inline int ensure_pairs(State *s) {
    return s->counted ? 0 : count_pairs(s);
}

/* State(flat, lengths, counts, n_vocab, first_rule, scored, min_frequency, spell=None)
 * flat: int32 ids of all words' initial symbols; lengths, counts: int64 per word.
 * scored: the code of a score this loop computes (bpeviz.engine.COMPILED_SCORES):
 * 0 the pair's count, 1 count / (count(a) * count(b)), WordPiece's.
 * spell: int32, one key per initial token, for the tie rule that compares spellings
 * (PairState's ``spell``). */
static int State_init(State *s, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"flat", "lengths", "counts", "n_vocab", "first_rule", "scored",
                             "min_frequency", "spell", NULL};
    PyObject *flat_o, *len_o, *cnt_o, *spell_o = Py_None;
    Py_ssize_t n_vocab;
    int first_rule, scored;
    long long min_freq;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOnppL|O", kwlist, &flat_o, &len_o,
                                     &cnt_o, &n_vocab, &first_rule, &scored, &min_freq,
                                     &spell_o))
        return -1;
    State_clear(s);
    if (spell_o != Py_None) {  /* the keys go in as the initial tokens are added */
        Py_buffer sb;
        if (get_buffer(spell_o, &sb, 4, "spell") < 0) return -1;
        int bad = sb.len / 4 != n_vocab;
        if (bad) PyErr_SetString(PyExc_ValueError, "spell needs one key per initial token");
        else if (ivec_reserve(&s->spell, n_vocab ? n_vocab : 1) < 0) bad = 1;
        else {
            memcpy(s->spell.v, sb.buf, (size_t)n_vocab * sizeof(int32_t));
            s->spelled = 1;
        }
        PyBuffer_Release(&sb);
        if (bad) { State_clear(s); return -1; }
    }
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
    s->wdata = big_malloc((size_t)(n_flat ? n_flat : 1) * sizeof(int32_t));
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
    if (s->spelled) {
        for (Py_ssize_t i = 0; i < n_vocab; i++) s->sp_off[i] = i;
        s->spell.n = (int32_t)n_vocab;
    }
    int64_t pos = 0;
    s->initial_tokens = 0;
    s->n_flat = n_flat;
    for (int64_t w = 0; w < n_words; w++) {
        if (lengths[w] < 0 || lengths[w] > INT32_MAX || pos + lengths[w] > n_flat) {
            PyErr_SetString(PyExc_ValueError, "word lengths do not match the symbols");
            goto done;
        }
        s->wstart[w] = pos;
        s->wlen[w] = (int32_t)lengths[w];
        s->wcount[w] = counts[w];
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
    s->wnodes = big_malloc((size_t)(n_flat ? n_flat : 1) * sizeof(int32_t));
    if (!s->wnodes) { PyErr_NoMemory(); goto done; }
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
    s->leaves_pending = 1;  /* made before the first merge; a replay by segments makes
                               only the nodes that outlive it (see "replaying by segments") */
    s->counted = 0;
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

/* One node per initial symbol (start = its index), made when first needed: merges and
 * the forest need them, a replay by segments does without most of them. */
static int ensure_leaves(State *s) {
    if (!s->leaves_pending) return 0;
    for (int64_t w = 0; w < s->n_words; w++) {
        for (int64_t i = s->wstart[w]; i < s->wstart[w] + s->wlen[w]; i++) {
            s->wnodes[i] = (int32_t)i;
            if (add_node(s, s->wdata[i], (int32_t)w, (int32_t)i, 0) < 0) return -1;
        }
    }
    s->leaves_pending = 0;
    return 0;
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
    if (ensure_pairs(s) < 0) return NULL;
    while (s->heap_n) {
        Entry e = s->heap[0];
        Pair *p = &s->pairs[e.pair];
        if (!p->count) {  /* merged away, or its last occurrence is gone */
            heap_pop(s);
            continue;
        }
        Entry fresh;
        if (make_entry(s, e.pair, &fresh) < 0) return NULL;
        if ((s->scored ? fresh.prio != e.prio : fresh.count != e.count)
            || fresh.fw != e.fw || fresh.foff != e.foff) {
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
        /* the words a few ahead fetched meanwhile (they lie anywhere in the corpus):
         * their lengths and counts, and, nearer, their symbols and nodes */
        if (li + 8 < list.n) {
            int32_t ahead = list.v[li + 8];
            __builtin_prefetch(&s->wstart[ahead]);
            __builtin_prefetch(&s->wlen[ahead]);
            __builtin_prefetch(&s->wcount[ahead]);
        }
        if (li + 4 < list.n) {
            int64_t at = s->wstart[list.v[li + 4]];
            __builtin_prefetch(s->wdata + at);
            __builtin_prefetch(s->wnodes + at);
        }
        int32_t w = list.v[li];
        int32_t *word = s->wdata + s->wstart[w], *nodes = s->wnodes + s->wstart[w];
        int32_t n = s->wlen[w];
        int64_t c = s->wcount[w];
        /* written in place: the output never runs ahead of what is still to be read (k <= j
         * at every site, and the left neighbour word[j - 1] is read before k reaches it) */
        int32_t *out = word, *nout = nodes;
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
            /* the forest: a new node over the two, which end here; it starts where a's
             * node does (read from that node: the unit offset is not a node's start where
             * a word's units are not its initial symbols, as WordPiece's "##" words show) */
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
        if (k < i) {
            memmove(out + k, word + i, (size_t)(n - i) * sizeof(int32_t));
            memmove(nout + k, nodes + i, (size_t)(n - i) * sizeof(int32_t));
        }
        k += n - i;
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

/* Check a merge's ids (t is an existing id, or n_vocab for a new token) and add t when
 * it is new: it then spans units[a] + units[b] initial symbols and spells a's keys then
 * b's. */
static int merge_token(State *s, int32_t a, int32_t b, int32_t t) {
    if (a < 0 || b < 0 || a >= s->n_vocab || b >= s->n_vocab || t < 0 || t > s->n_vocab) {
        PyErr_SetString(PyExc_ValueError, "token id out of range");
        return -1;
    }
    if (t < s->n_vocab) return 0;
    if (add_token(s, s->units[a] + s->units[b]) < 0) return -1;
    if (s->spelled) {
        int64_t na = s->units[a], nb = s->units[b];
        if (ivec_reserve(&s->spell, s->spell.n + na + nb) < 0) return -1;
        memcpy(s->spell.v + s->spell.n, s->spell.v + s->sp_off[a],
               (size_t)na * sizeof(int32_t));
        memcpy(s->spell.v + s->spell.n + na, s->spell.v + s->sp_off[b],
               (size_t)nb * sizeof(int32_t));
        s->spell.n += (int32_t)(na + nb);
    }
    return 0;
}

/* One merge (see State_merge); its pair's count and score before it, and the
 * occurrences replaced, go to *count, *score, *replaced. */
static int merge_one(State *s, int32_t a, int32_t b, int32_t t, int32_t step,
                     int64_t *count_out, double *score_out, int64_t *replaced_out) {
    if (ensure_leaves(s) < 0 || ensure_pairs(s) < 0) return -1;
    if (merge_token(s, a, b, t) < 0) return -1;
    int32_t pi = pair_find(s, a, b);
    int64_t count = pi >= 0 ? s->pairs[pi].count : 0;
    double score = 0.0;
    if (count && priority(s, pi, &score) < 0) return -1;
    if (s->stamp >= (1 << 28)) {
        PyErr_SetString(PyExc_OverflowError, "too many merges");
        return -1;
    }
    s->stamp++;
    s->grown.n = s->dropped.n = s->push.n = 0;
    int64_t replaced = 0;
    if (pi >= 0 && (replaced = merge_words(s, pi, a, b, t, step)) < 0) return -1;
    if (s->scored) {  /* scores rise when a unit count falls: every pair of a, b, t moves */
        s->uc[a] -= replaced;
        s->uc[b] -= replaced;
        s->uc[t] += replaced;
        for (int64_t i = 0; i < s->grown.n; i++) {
            int32_t qi = s->grown.v[i];
            int32_t x = s->pairs[qi].a, y = s->pairs[qi].b;
            if (ivec_push(&s->pairs_of[x], qi) < 0) return -1;
            if (y != x && ivec_push(&s->pairs_of[y], qi) < 0) return -1;
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
                if (push_pair(s, po->v[i]) < 0) return -1;
        }
        for (int64_t i = 0; i < s->dropped.n; i++)
            if (push_pair(s, s->dropped.v[i]) < 0) return -1;
    }
    for (int64_t i = 0; i < s->grown.n; i++)
        if (push_pair(s, s->grown.v[i]) < 0) return -1;
    for (int64_t i = 0; i < s->push.n; i++) {
        int32_t qi = s->push.v[i];
        if (!s->pairs[qi].count) continue;
        Entry e;
        if (make_entry(s, qi, &e) < 0 || heap_push(s, &e) < 0) return -1;
    }
    *count_out = count;
    *score_out = score;
    *replaced_out = replaced;
    return 0;
}

/* merge(a, b, t, step) -> (count, score, replaced). t is an existing id, or n_vocab for a
 * new token (it then spans units[a] + units[b] initial symbols). */
static PyObject *State_merge(State *s, PyObject *args) {
    int a, b, t, step;
    if (!PyArg_ParseTuple(args, "iiii", &a, &b, &t, &step)) return NULL;
    CHECK_READY(s);
    int64_t count, replaced;
    double score;
    if (merge_one(s, a, b, t, step, &count, &score, &replaced) < 0) return NULL;
    return Py_BuildValue("(LdL)", (long long)count, score, (long long)replaced);
}

/* ---- sorting nodes -------------------------------------------------------------------- */
typedef struct {
    int64_t key;        /* (position << 32) | step: the order of nodes within a word */
    int32_t node;
} Keyed;

/* Sort a[lo..hi) by key, by insertion: a word's nodes come mostly in order (its first
 * symbols, then each merge's). */
static void insert_keyed(Keyed *a, int64_t lo, int64_t hi) {
    for (int64_t i = lo + 1; i < hi; i++) {
        Keyed k = a[i];
        int64_t j = i;
        while (j > lo && a[j - 1].key > k.key) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = k;
    }
}

/* Sort a[0..n) by key (a word's keys are distinct): up to SORT_RUN * 3 / 2 nodes by
 * insertion; more through tmp (n long), runs of SORT_RUN by insertion then merged in
 * passes, the comparisons inline where qsort calls through a pointer. */
#define SORT_RUN 16
static void sort_keyed(Keyed *a, Keyed *tmp, int64_t n) {
    if (n <= SORT_RUN * 3 / 2) {
        insert_keyed(a, 0, n);
        return;
    }
    for (int64_t lo = 0; lo < n; lo += SORT_RUN)
        insert_keyed(a, lo, lo + SORT_RUN < n ? lo + SORT_RUN : n);
    Keyed *src = a, *dst = tmp;
    for (int64_t width = SORT_RUN; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = src[j].key < src[i].key ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        Keyed *t = src; src = dst; dst = t;
    }
    if (src != a) memcpy(a, src, (size_t)n * sizeof(Keyed));
}

/* ---- replaying merges ---------------------------------------------------------------- */
/* replay(a, b, t) -> (count, score, replaced): merges 1..n (int32 buffers, n each), the
 * results one per merge as int64, double and int64 bytes; what n calls to merge() give.
 * On a state that has merged nothing yet and keeps no scores, the merges are made word by
 * word (each word's pairs in a small heap by rank, then position: merge k happens in a
 * word exactly where the k-th call would have made it), or, with `segments`, stretch by
 * stretch between boundaries no merge crosses, each distinct stretch once (see "replaying
 * by segments"); the pair table is counted once afterwards. Otherwise merge() is called
 * n times. A pair merged twice (made again
 * through a token that an earlier merge had made already) has a rank per merge, chained
 * by `again`. */
#define SMALL 256      /* pairs of ids below it are ranked in a direct table */
#define REPLAY_SCAN 64 /* words up to this many symbols are replayed by scanning */
typedef struct {
    uint64_t *keys, mask;
    int32_t *vals, *again;
    int32_t *small;    /* SMALL * SMALL first ranks (-1: none) */
} RankTable;

/* The first merge of (x, y) after merge `cur` (0-based), or -1. */
static inline int32_t rank_after(const RankTable *rt, int32_t x, int32_t y, int32_t cur) {
    int32_t r = -1;
    if (x < SMALL && y < SMALL) {
        r = rt->small[x * SMALL + y];
    } else {
        uint64_t key = pair_key(x, y);
        for (uint64_t h = mix(key) & rt->mask;; h = (h + 1) & rt->mask) {
            if (rt->vals[h] < 0) return -1;
            if (rt->keys[h] == key) {
                r = rt->vals[h];
                break;
            }
        }
    }
    while (r >= 0 && r <= cur) r = rt->again[r];
    return r;
}

static inline void key_push(int64_t *heap, int64_t *n, int64_t key) {
    int64_t i = (*n)++;
    while (i > 0 && heap[(i - 1) / 2] > key) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = key;
}

/* Move heap[i] down to its place among heap[0..n). */
static inline void key_sift(int64_t *heap, int64_t n, int64_t i) {
    int64_t x = heap[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && heap[c + 1] < heap[c]) c++;
        if (heap[c] >= x) break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = x;
}

static inline int64_t key_pop(int64_t *heap, int64_t *n) {
    int64_t top = heap[0];
    if (--(*n)) {
        heap[0] = heap[*n];
        key_sift(heap, *n, 0);
    }
    return top;
}

/* Word w's merges by scanning (short words: a scan of a few ids beats a heap): each
 * round takes the smallest rank among its pairs and makes that merge at every site, left
 * to right, as merge_words does; rank[i] is the rank of the pair at i (INT32_MAX: none). */
static int replay_scan(State *s, const RankTable *rt, int32_t w, const int32_t *A,
                       const int32_t *B, const int32_t *T, int64_t *count, int64_t *replaced,
                       int32_t *rank) {
    int32_t m = s->wlen[w];
    int32_t *sym = s->wdata + s->wstart[w], *nodes = s->wnodes + s->wstart[w];
    int64_t c = s->wcount[w];
    for (int32_t i = 0; i + 1 < m; i++) {
        int32_t r = rank_after(rt, sym[i], sym[i + 1], -1);
        rank[i] = r < 0 ? INT32_MAX : r;
    }
    while (m > 1) {
        int32_t r = INT32_MAX;
        for (int32_t i = 0; i + 1 < m; i++)
            if (rank[i] < r) r = rank[i];
        if (r == INT32_MAX) break;
        int32_t a = A[r], b = B[r], t = T[r], step = r + 1;
        /* written in place (k <= i): the ranks at and after i are still the round's own */
        int32_t k = 0, i = 0, owed = 0;  /* owed: rank[k - 1], a site's, needs its right */
        while (i < m) {
            if (i + 1 < m && rank[i] == r) {
                count[r] += c;
                replaced[r] += c;
                if (a == b && i + 2 < m && sym[i + 2] == a)
                    count[r] += c;  /* (b, a) overlapped this site: counted, not merged */
                int32_t node = (int32_t)s->n_token.n;
                if (add_node(s, t, w, s->n_start.v[nodes[i]], step) < 0) return -1;
                s->n_until.v[nodes[i]] = step;
                s->n_until.v[nodes[i + 1]] = step;
                sym[k] = t;
                nodes[k] = node;
                if (k > 0) {
                    int32_t rx = rank_after(rt, sym[k - 1], t, r);
                    rank[k - 1] = rx < 0 ? INT32_MAX : rx;
                }
                owed = 1;
                k++;
                i += 2;
            } else {
                int32_t ri = rank[i];
                sym[k] = sym[i];
                nodes[k] = nodes[i];
                if (owed) {
                    int32_t ry = rank_after(rt, sym[k - 1], sym[k], r);
                    rank[k - 1] = ry < 0 ? INT32_MAX : ry;
                    owed = 0;
                }
                rank[k] = ri;  /* its pair with the next, unless a site follows (above) */
                k++;
                i++;
            }
        }
        m = k;
    }
    s->wlen[w] = m;
    return 0;
}

/* ---- replaying by segments ------------------------------------------------------------
 * A boundary between two initial symbols x | y is safe when no merge joins a token ending
 * in x to one starting with y: no merge can then ever cross it, nor can any pair that a
 * merge counts, so a word's replay is its segments' replays (the stretches between safe
 * boundaries) side by side. Segments repeat far more than words do (stage 2 of SuperBPE:
 * 83,000 distinct phrases, 595,000 segments, 22,000 distinct ones), so each distinct one
 * is replayed once and its merges kept as events. The state's forest gets only the nodes
 * that outlive the replay; the ones merged inside a segment, the same at every occurrence,
 * are kept once with the list of occurrences, and forest() writes them out (struct
 * Shared), and each merge's count is its segments' events times their words' counts. */
#define SEG_MAX_BASE 4096  /* the crossing table is a bitset of base ids squared */
typedef struct {
    uint64_t key;         /* seg_key of its ids */
    int32_t ids, len;     /* its initial ids: Segs.ids[ids .. ids + len) */
    int32_t ev, n_ev;     /* its merges: Segs.ev[4 * ev ..), (rank, left, right, overlap) */
    int32_t fin, n_fin;   /* its final split, as local nodes: Segs.fin[fin ..) */
    int32_t loc;          /* local node j (len initial ones, then one per merge) has token
                             Segs.ltok[loc + j], start Segs.lstart[loc + j] in the segment,
                             and is made at Segs.lstep[loc + j], merged at luntil[...] */
    int32_t inner, n_inner; /* the local nodes merged inside it, by (start, step):
                               Segs.inner[inner ..) */
    int64_t weight;       /* the counts of the words it occurs in, once per occurrence */
    int64_t n_occ;        /* its occurrences */
} Seg;

typedef struct {         /* a slot of the segments' hash table: a key and its segment */
    uint64_t key;
    int32_t seg;          /* -1: empty */
} SegSlot;

typedef struct {
    Seg *seg;
    int64_t n, cap;
    SegSlot *slot;        /* hash table: segment key -> segment, by mix(key) */
    uint64_t mask;
    int idbits;           /* the bits an initial id takes in a key (seg_key) */
    IVec ids, ev, fin, ltok, lstart, lstep, luntil, inner;
} Segs;

static void segs_free(Segs *g) {
    PyMem_RawFree(g->seg); PyMem_RawFree(g->slot);
    g->seg = NULL; g->slot = NULL;
    ivec_free(&g->ids); ivec_free(&g->ev); ivec_free(&g->fin);
    ivec_free(&g->ltok); ivec_free(&g->lstart); ivec_free(&g->lstep); ivec_free(&g->luntil);
    ivec_free(&g->inner);
}

/* What a replay by segments leaves for the forest: the distinct segments, and each
 * occurrence of one (its segment, word and corpus-wide start), in corpus order. Only the
 * nodes that outlive the replay (each occurrence's final split) are made in the state;
 * the ones merged inside a segment are the same at every occurrence, so they are kept
 * once here and written out by forest(). */
struct Shared {
    Segs g;
    IVec occ_seg, occ_word, occ_start;
};

static void shared_drop(struct Shared *sh) {
    if (!sh) return;
    segs_free(&sh->g);
    ivec_free(&sh->occ_seg);
    ivec_free(&sh->occ_word);
    ivec_free(&sh->occ_start);
    PyMem_RawFree(sh);
}

static void shared_free(State *s) {
    shared_drop(s->shared);
    s->shared = NULL;
}

static int segs_grow_table(Segs *g) {
    uint64_t cap = g->mask ? (g->mask + 1) * 2 : 1024;
    SegSlot *slot = PyMem_RawMalloc(cap * sizeof(SegSlot));
    if (!slot) { PyErr_NoMemory(); return -1; }
    for (uint64_t h = 0; h < cap; h++) slot[h].seg = -1;
    for (int64_t i = 0; i < g->n; i++) {
        uint64_t h = mix(g->seg[i].key) & (cap - 1);
        while (slot[h].seg >= 0) h = (h + 1) & (cap - 1);
        slot[h] = (SegSlot){g->seg[i].key, (int32_t)i};
    }
    PyMem_RawFree(g->slot);
    g->slot = slot;
    g->mask = cap - 1;
    return 0;
}

/* A segment's key. Most segments are a few ids: their key is the ids themselves (a 1,
 * then each id in `idbits` bits, the top bit set), so equal keys are equal segments and
 * a look-up reads one slot, no record and no ids. A longer segment's key is a hash of
 * its ids with the top bit clear (so never a short one's), and its ids are compared. */
static inline uint64_t seg_key(const int32_t *x, int32_t m, int idbits) {
    if ((int64_t)m * idbits <= 62) {
        uint64_t k = 1;
        for (int32_t i = 0; i < m; i++) k = (k << idbits) | (uint32_t)x[i];
        return k | (1ULL << 63);
    }
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)m;
    for (int32_t i = 0; i < m; i++) h = (h ^ (uint32_t)x[i]) * 0x100000001b3ULL;
    return h & ~(1ULL << 63);
}

/* The segment x[0..m) replayed on its own (as the heap path of State_replay replays a
 * word), kept in g; its index, or -1 on an error. nxt, prv, sym, nd and heap are scratch
 * of the longest word's size (heap three times it). */
static int32_t seg_make(Segs *g, const RankTable *rt, const int32_t *A, const int32_t *B,
                        const int32_t *T, const int32_t *x, int32_t m, uint64_t key,
                        int32_t *nxt, int32_t *prv, int32_t *sym, int32_t *nd, int64_t *heap) {
    if (g->n == g->cap) {
        int64_t cap = g->cap ? g->cap * 2 : 1024;
        Seg *seg = PyMem_RawRealloc(g->seg, (size_t)cap * sizeof(Seg));
        if (!seg) { PyErr_NoMemory(); return -1; }
        g->seg = seg;
        g->cap = cap;
    }
    Seg *sg = &g->seg[g->n];
    sg->key = key;
    sg->weight = 0;
    sg->n_occ = 0;
    sg->ids = g->ids.n;
    sg->len = m;
    sg->ev = g->ev.n / 4;
    if (ivec_reserve(&g->ids, (int64_t)g->ids.n + m) < 0) return -1;
    memcpy(g->ids.v + g->ids.n, x, (size_t)m * sizeof(int32_t));
    g->ids.n += m;
    int64_t hn = 0;
    int32_t next_local = m;
    for (int32_t i = 0; i < m; i++) {
        sym[i] = x[i];
        nd[i] = i;
        nxt[i] = i + 1 < m ? i + 1 : -1;
        prv[i] = i - 1;
    }
    for (int32_t i = 0; i + 1 < m; i++) {
        int32_t r = rank_after(rt, sym[i], sym[i + 1], -1);
        if (r >= 0) heap[hn++] = ((int64_t)r << 32) | (uint32_t)i;
    }
    for (int64_t i = hn / 2 - 1; i >= 0; i--) key_sift(heap, hn, i);
    while (hn) {
        int64_t top = key_pop(heap, &hn);
        int32_t r = (int32_t)(top >> 32), p = (int32_t)(top & 0xffffffff);
        if (prv[p] == -2) continue;  /* merged into its left neighbour */
        int32_t q = nxt[p];
        if (q < 0 || sym[p] != A[r] || sym[q] != B[r]) continue;  /* a changed pair */
        int32_t t = T[r], after = nxt[q];
        int32_t overlap = A[r] == B[r] && after >= 0 && sym[after] == A[r];
        if (ivec_push(&g->ev, r) < 0 || ivec_push(&g->ev, nd[p]) < 0 ||
            ivec_push(&g->ev, nd[q]) < 0 || ivec_push(&g->ev, overlap) < 0)
            return -1;
        nd[p] = next_local++;
        sym[p] = t;
        prv[q] = -2;
        nxt[p] = after;
        if (after >= 0) prv[after] = p;
        if (prv[p] >= 0) {
            int32_t y = prv[p];
            int32_t rx = rank_after(rt, sym[y], t, r);
            if (rx >= 0) key_push(heap, &hn, ((int64_t)rx << 32) | (uint32_t)y);
        }
        if (after >= 0) {
            int32_t ry = rank_after(rt, t, sym[after], r);
            if (ry >= 0) key_push(heap, &hn, ((int64_t)ry << 32) | (uint32_t)p);
        }
    }
    sg->n_ev = g->ev.n / 4 - sg->ev;
    sg->fin = g->fin.n;
    for (int32_t i = 0; i >= 0; i = nxt[i])
        if (ivec_push(&g->fin, nd[i]) < 0) return -1;
    sg->n_fin = g->fin.n - sg->fin;
    /* each local node's token, start, step made and step merged */
    int32_t nl = m + sg->n_ev;
    sg->loc = g->ltok.n;
    if (ivec_reserve(&g->ltok, (int64_t)g->ltok.n + nl) < 0 ||
        ivec_reserve(&g->lstart, (int64_t)g->lstart.n + nl) < 0 ||
        ivec_reserve(&g->lstep, (int64_t)g->lstep.n + nl) < 0 ||
        ivec_reserve(&g->luntil, (int64_t)g->luntil.n + nl) < 0)
        return -1;
    int32_t *ltok = g->ltok.v + sg->loc, *lstart = g->lstart.v + sg->loc;
    int32_t *lstep = g->lstep.v + sg->loc, *luntil = g->luntil.v + sg->loc;
    g->ltok.n = g->lstart.n = g->lstep.n = g->luntil.n = sg->loc + nl;
    for (int32_t i = 0; i < m; i++) {
        ltok[i] = x[i];
        lstart[i] = i;
        lstep[i] = 0;
        luntil[i] = NEVER;
    }
    const int32_t *ev = g->ev.v + 4 * (int64_t)sg->ev;
    for (int32_t j = 0; j < sg->n_ev; j++, ev += 4) {
        int32_t r = ev[0];
        ltok[m + j] = T[r];
        lstart[m + j] = lstart[ev[1]];
        lstep[m + j] = r + 1;
        luntil[m + j] = NEVER;
        luntil[ev[1]] = luntil[ev[2]] = r + 1;
    }
    /* the inner nodes by (start, step), sorted as a word's nodes are (on the stack when
     * few, as segments mostly are) */
    sg->inner = g->inner.n;
    if (ivec_reserve(&g->inner, (int64_t)g->inner.n + nl) < 0) return -1;
    int32_t *in = g->inner.v + sg->inner, k = 0;
    for (int32_t j = 0; j < nl; j++)
        if (luntil[j] != NEVER) in[k++] = j;
    Keyed few[2 * SORT_RUN * 3 / 2];
    Keyed *keys = k <= SORT_RUN * 3 / 2 ? few : PyMem_RawMalloc(2 * (size_t)k * sizeof(Keyed));
    if (!keys) { PyErr_NoMemory(); return -1; }
    for (int32_t i = 0; i < k; i++)
        keys[i] = (Keyed){((int64_t)lstart[in[i]] << 32) | (uint32_t)lstep[in[i]], in[i]};
    sort_keyed(keys, keys + k, k);
    for (int32_t i = 0; i < k; i++) in[i] = keys[i].node;
    if (keys != few) PyMem_RawFree(keys);
    sg->n_inner = k;
    g->inner.n += k;
    return (int32_t)(g->n++);
}

/* The segment x[0..m), whose seg_key is `key`, in g (made if new): its index, or -1 on
 * an error. */
static int32_t seg_find(Segs *g, const RankTable *rt, const int32_t *A, const int32_t *B,
                        const int32_t *T, const int32_t *x, int32_t m, uint64_t key,
                        int32_t *nxt, int32_t *prv, int32_t *sym, int32_t *nd, int64_t *heap) {
    if ((uint64_t)(g->n + 1) * 2 > g->mask && segs_grow_table(g) < 0) return -1;
    int exact = (int)(key >> 63);
    uint64_t h = mix(key) & g->mask;
    for (; g->slot[h].seg >= 0; h = (h + 1) & g->mask) {
        if (g->slot[h].key != key) continue;
        if (exact) return g->slot[h].seg;
        const Seg *sg = &g->seg[g->slot[h].seg];
        if (sg->len == m && !memcmp(g->ids.v + sg->ids, x, (size_t)m * sizeof(int32_t)))
            return g->slot[h].seg;
    }
    int32_t i = seg_make(g, rt, A, B, T, x, m, key, nxt, prv, sym, nd, heap);
    if (i >= 0) g->slot[h] = (SegSlot){key, i};
    return i;
}

/* The first and last base symbol of every token, and which base pairs (last of a
 * merge's left token, first of its right) a merge joins: a bitset of nb * nb. NULL (and
 * no error set) when a merge makes a base symbol, as segments then cannot be told. */
static uint8_t *crossing_table(State *s, int32_t nb, const int32_t *A, const int32_t *B,
                               const int32_t *T, Py_ssize_t n) {
    int64_t nv = s->n_vocab;
    int32_t *first = PyMem_RawMalloc((size_t)nv * sizeof(int32_t));
    int32_t *last = PyMem_RawMalloc((size_t)nv * sizeof(int32_t));
    uint8_t *bits = PyMem_RawCalloc(((size_t)nb * nb + 7) / 8, 1);
    if (!first || !last || !bits) {
        PyMem_RawFree(first); PyMem_RawFree(last); PyMem_RawFree(bits);
        PyErr_NoMemory();
        return NULL;
    }
    for (int32_t i = 0; i < nb; i++) first[i] = last[i] = i;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (T[k] < nb) {  /* a base symbol made by a merge */
            PyMem_RawFree(first); PyMem_RawFree(last); PyMem_RawFree(bits);
            return NULL;
        }
        first[T[k]] = first[A[k]];
        last[T[k]] = last[B[k]];
        size_t bit = (size_t)last[A[k]] * nb + first[B[k]];
        bits[bit >> 3] |= (uint8_t)(1u << (bit & 7));
    }
    PyMem_RawFree(first); PyMem_RawFree(last);
    return bits;
}

static inline int crosses(const uint8_t *bits, int32_t nb, int32_t x, int32_t y) {
    size_t bit = (size_t)x * nb + y;
    return (bits[bit >> 3] >> (bit & 7)) & 1;
}

/* Every word replayed segment by segment (see above): what the word-by-word loop of
 * State_replay does, each distinct segment replayed once. The state's forest gets only
 * the nodes of each word's split after the replay (a symbol between segments, or a
 * segment's final token), at their corpus-wide start and the step they were made; the
 * nodes merged inside a segment are left in s->shared. Needs the initial symbols' nodes
 * not made yet (s->leaves_pending). 0, or -1 on an error.
 *
 * In three passes, for memory's sake (the segments' table and records are read at random,
 * a cache miss each when read in turn): every occurrence's place, length and key, reading
 * the words in order; then each occurrence's segment, the table's slot eight occurrences
 * ahead prefetched; then the words written out as they stand, each occurrence's final
 * tokens read from one packed run, the run eight ahead prefetched. Nothing is written
 * into the words before the last pass, so the first two read them as they were. */
static int replay_by_segments(State *s, const RankTable *rt, const uint8_t *bits, int32_t nb,
                              const int32_t *A, const int32_t *B, const int32_t *T,
                              int64_t *count, int64_t *replaced, int32_t longest) {
    struct Shared *sh = PyMem_RawCalloc(1, sizeof(struct Shared));
    if (!sh) { PyErr_NoMemory(); return -1; }
    Segs *g = &sh->g;
    g->idbits = 1;
    while (((int64_t)1 << g->idbits) < nb) g->idbits++;
    int rc = -1;
    size_t L = (size_t)longest + 1;
    int32_t *nxt = PyMem_RawMalloc(L * sizeof(int32_t)), *prv = PyMem_RawMalloc(L * sizeof(int32_t));
    int32_t *sym = PyMem_RawMalloc(L * sizeof(int32_t)), *nd = PyMem_RawMalloc(L * sizeof(int32_t));
    int64_t *heap = PyMem_RawMalloc(3 * L * sizeof(int64_t));
    /* an occurrence is at least two symbols: at most n_flat / 2 of them */
    size_t most = (size_t)(s->n_flat / 2 + 1);
    uint64_t *keys = big_malloc(most * sizeof(uint64_t));
    int32_t *lens = big_malloc(most * sizeof(int32_t));
    typedef struct { int32_t tok, start, step; } Fin;
    typedef struct { int32_t at, n; } Run;
    Fin *fins = NULL;
    Run *runs = NULL;
    int64_t *weight = NULL, *n_occ = NULL;
    if (!nxt || !prv || !sym || !nd || !heap || !keys || !lens) { PyErr_NoMemory(); goto out; }
    if (ivec_reserve(&sh->occ_seg, (int64_t)most) < 0 ||
        ivec_reserve(&sh->occ_word, (int64_t)most) < 0 ||
        ivec_reserve(&sh->occ_start, (int64_t)most) < 0)
        goto out;
    /* 1: the occurrences */
    int32_t *occ_word = sh->occ_word.v, *occ_start = sh->occ_start.v, *occ_seg = sh->occ_seg.v;
    int64_t n = 0;
    for (int64_t w = 0; w < s->n_words; w++) {
        int32_t len = s->wlen[w];
        int64_t base = s->wstart[w];
        const int32_t *wsym = s->wdata + base;
        for (int32_t o = 0; o < len;) {
            int32_t e = o + 1;
            while (e < len && crosses(bits, nb, wsym[e - 1], wsym[e])) e++;
            if (e - o > 1) {
                occ_word[n] = (int32_t)w;
                occ_start[n] = (int32_t)(base + o);
                lens[n] = e - o;
                keys[n++] = seg_key(wsym + o, e - o, g->idbits);
            }
            o = e;
        }
    }
    sh->occ_word.n = sh->occ_start.n = sh->occ_seg.n = (int32_t)n;
    /* 2: each occurrence's segment */
    if (segs_grow_table(g) < 0) goto out;
    for (int64_t k = 0; k < n; k++) {
        if (k + 8 < n) __builtin_prefetch(&g->slot[mix(keys[k + 8]) & g->mask]);
        int32_t i = seg_find(g, rt, A, B, T, s->wdata + occ_start[k], lens[k], keys[k], nxt,
                             prv, sym, nd, heap);
        if (i < 0) goto out;
        occ_seg[k] = i;
    }
    /* each segment's weight (its merges are counted once, by it, at the end), its
     * occurrences, and its final tokens packed as a run */
    weight = PyMem_RawCalloc((size_t)(g->n ? g->n : 1), sizeof(int64_t));
    n_occ = PyMem_RawCalloc((size_t)(g->n ? g->n : 1), sizeof(int64_t));
    runs = PyMem_RawMalloc((size_t)(g->n ? g->n : 1) * sizeof(Run));
    fins = PyMem_RawMalloc((size_t)(g->fin.n ? g->fin.n : 1) * sizeof(Fin));
    if (!weight || !n_occ || !runs || !fins) { PyErr_NoMemory(); goto out; }
    for (int64_t k = 0; k < n; k++) {
        weight[occ_seg[k]] += s->wcount[occ_word[k]];
        n_occ[occ_seg[k]]++;
    }
    for (int64_t i = 0; i < g->n; i++) {
        Seg *sg = &g->seg[i];
        sg->weight = weight[i];
        sg->n_occ = n_occ[i];
        runs[i] = (Run){sg->fin, sg->n_fin};
        const int32_t *fin = g->fin.v + sg->fin;
        const int32_t *ltok = g->ltok.v + sg->loc, *lstart = g->lstart.v + sg->loc;
        const int32_t *lstep = g->lstep.v + sg->loc;
        for (int32_t j = 0; j < sg->n_fin; j++)
            fins[sg->fin + j] = (Fin){ltok[fin[j]], lstart[fin[j]], lstep[fin[j]]};
    }
    /* 3: the words as they stand, and the state's nodes for them (at most one a symbol) */
    if (reserve_nodes(s, s->n_flat) < 0) goto out;
    int32_t *ntok = s->n_token.v, *nword = s->n_word.v, *nstart = s->n_start.v;
    int32_t *nstep = s->n_step.v, *nuntil = s->n_until.v;
    int32_t made = s->n_token.n;
    int64_t k = 0;  /* the next occurrence */
    for (int64_t w = 0; w < s->n_words; w++) {
        int32_t len = s->wlen[w];
        int64_t base = s->wstart[w];
        int32_t *wsym = s->wdata + base, *wnd = s->wnodes + base;
        int32_t at = 0;  /* the word as it stands is written out in place, at <= o */
        for (int32_t o = 0; o < len;) {
            if (k < n && occ_start[k] == base + o) {
                if (k + 8 < n) __builtin_prefetch(fins + runs[occ_seg[k + 8]].at);
                Run run = runs[occ_seg[k]];
                for (int32_t j = 0; j < run.n; j++) {
                    const Fin *f = &fins[run.at + j];
                    ntok[made] = f->tok;
                    nword[made] = (int32_t)w;
                    nstart[made] = (int32_t)(base + o + f->start);
                    nstep[made] = f->step;
                    nuntil[made] = NEVER;
                    wnd[at] = made++;
                    wsym[at++] = f->tok;
                }
                o += lens[k++];
            } else {  /* a symbol between segments */
                ntok[made] = wsym[o];
                nword[made] = (int32_t)w;
                nstart[made] = (int32_t)(base + o);
                nstep[made] = 0;
                nuntil[made] = NEVER;
                wnd[at] = made++;
                wsym[at++] = wsym[o++];
            }
        }
        s->wlen[w] = at;
    }
    s->n_token.n = s->n_word.n = s->n_start.n = s->n_step.n = s->n_until.n = made;
    for (int64_t i = 0; i < g->n; i++) {
        const Seg *sg = &g->seg[i];
        const int32_t *ev = g->ev.v + 4 * (int64_t)sg->ev;
        for (int32_t j = 0; j < sg->n_ev; j++, ev += 4) {
            count[ev[0]] += ev[3] ? 2 * sg->weight : sg->weight;  /* an overlapped (b, a):
                                                                     counted, not merged */
            replaced[ev[0]] += sg->weight;
        }
    }
    s->leaves_pending = 0;
    s->shared = sh;
    sh = NULL;
    rc = 0;
out:
    shared_drop(sh);  /* NULL once the state holds it */
    PyMem_RawFree(nxt); PyMem_RawFree(prv); PyMem_RawFree(sym); PyMem_RawFree(nd);
    PyMem_RawFree(heap); PyMem_RawFree(keys); PyMem_RawFree(lens);
    PyMem_RawFree(fins); PyMem_RawFree(runs); PyMem_RawFree(weight); PyMem_RawFree(n_occ);
    return rc;
}

static PyObject *State_replay(State *s, PyObject *args) {
    PyObject *a_o, *b_o, *t_o;
    Py_ssize_t scan = REPLAY_SCAN;
    int segments = 1;
    if (!PyArg_ParseTuple(args, "OOO|np", &a_o, &b_o, &t_o, &scan, &segments)) return NULL;
    CHECK_READY(s);
    Py_buffer ab, bb, tb;
    if (get_buffer(a_o, &ab, 4, "a") < 0) return NULL;
    if (get_buffer(b_o, &bb, 4, "b") < 0) { PyBuffer_Release(&ab); return NULL; }
    if (get_buffer(t_o, &tb, 4, "t") < 0) {
        PyBuffer_Release(&ab); PyBuffer_Release(&bb); return NULL;
    }
    PyObject *res = NULL, *cnt_o = NULL, *scr_o = NULL, *rep_o = NULL;
    uint64_t *rkeys = NULL;
    int32_t *rvals = NULL, *again = NULL, *small = NULL, *nxt = NULL, *prv = NULL;
    int64_t *heap = NULL;
    Py_ssize_t n = ab.len / 4;
    const int32_t *A = ab.buf, *B = bb.buf, *T = tb.buf;
    if (bb.len / 4 != n || tb.len / 4 != n) {
        PyErr_SetString(PyExc_ValueError, "a, b and t need one id per merge");
        goto done;
    }
    if (n >= INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many merges");
        goto done;
    }
    cnt_o = PyBytes_FromStringAndSize(NULL, n * 8);
    scr_o = PyBytes_FromStringAndSize(NULL, n * 8);
    rep_o = PyBytes_FromStringAndSize(NULL, n * 8);
    if (!cnt_o || !scr_o || !rep_o) goto done;
    int64_t *count = (int64_t *)PyBytes_AS_STRING(cnt_o);
    double *score = (double *)PyBytes_AS_STRING(scr_o);
    int64_t *replaced = (int64_t *)PyBytes_AS_STRING(rep_o);
    if (s->scored || s->stamp) {  /* the merges one by one */
        for (Py_ssize_t k = 0; k < n; k++)
            if (merge_one(s, A[k], B[k], T[k], (int32_t)(k + 1), &count[k], &score[k],
                          &replaced[k]) < 0)
                goto done;
        res = PyTuple_Pack(3, cnt_o, scr_o, rep_o);
        goto done;
    }
    int64_t nb = s->n_vocab;  /* the base symbols: every word's ids are below it */
    for (Py_ssize_t k = 0; k < n; k++) {
        if (merge_token(s, A[k], B[k], T[k]) < 0) goto done;
        count[k] = replaced[k] = 0;
    }
    /* the ranks: (a, b) -> its first merge, `again` -> the same pair's next one */
    uint64_t cap = 16;
    while (cap < (uint64_t)n * 2 + 2) cap *= 2;
    RankTable rt = {.mask = cap - 1};
    rt.keys = rkeys = PyMem_RawMalloc(cap * sizeof(uint64_t));
    rt.vals = rvals = PyMem_RawMalloc(cap * sizeof(int32_t));
    rt.again = again = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int32_t));
    rt.small = small = PyMem_RawMalloc(SMALL * SMALL * sizeof(int32_t));
    if (!rkeys || !rvals || !again || !small) { PyErr_NoMemory(); goto done; }
    memset(rvals, 0xff, cap * sizeof(int32_t));
    memset(small, 0xff, SMALL * SMALL * sizeof(int32_t));
    for (Py_ssize_t k = n - 1; k >= 0; k--) {  /* backwards: each pair's first merge wins */
        if (A[k] < SMALL && B[k] < SMALL) {
            again[k] = small[A[k] * SMALL + B[k]];  /* -1, or the same pair's later merge */
            small[A[k] * SMALL + B[k]] = (int32_t)k;
            continue;
        }
        uint64_t key = pair_key(A[k], B[k]);
        uint64_t h = mix(key) & rt.mask;
        while (rvals[h] >= 0 && rkeys[h] != key) h = (h + 1) & rt.mask;
        again[k] = rvals[h];
        rkeys[h] = key;
        rvals[h] = (int32_t)k;
    }
    int32_t longest = 0;
    for (int64_t w = 0; w < s->n_words; w++)
        if (s->wlen[w] > longest) longest = s->wlen[w];
    if (segments && nb <= SEG_MAX_BASE && s->leaves_pending) {
        uint8_t *bits = crossing_table(s, (int32_t)nb, A, B, T, n);
        if (!bits && PyErr_Occurred()) goto done;
        if (bits) {
            int rc = replay_by_segments(s, &rt, bits, (int32_t)nb, A, B, T, count, replaced,
                                        longest);
            PyMem_RawFree(bits);
            if (rc < 0) goto done;
            goto replayed;
        }
    }
    if (ensure_leaves(s) < 0) goto done;
    /* each site pushes at most two entries and removes a symbol: 3 per symbol bound them */
    nxt = PyMem_RawMalloc((size_t)(longest + 1) * sizeof(int32_t));
    prv = PyMem_RawMalloc((size_t)(longest + 1) * sizeof(int32_t));
    heap = PyMem_RawMalloc((size_t)(3 * (int64_t)longest + 1) * sizeof(int64_t));
    if (!nxt || !prv || !heap) { PyErr_NoMemory(); goto done; }
    for (int64_t w = 0; w < s->n_words; w++) {
        int32_t len = s->wlen[w];
        if (len < 2) continue;
        if (len <= scan) {
            if (replay_scan(s, &rt, (int32_t)w, A, B, T, count, replaced, nxt) < 0) goto done;
            continue;
        }
        int32_t *sym = s->wdata + s->wstart[w], *nodes = s->wnodes + s->wstart[w];
        int64_t c = s->wcount[w], hn = 0;
        for (int32_t i = 0; i < len; i++) {
            nxt[i] = i + 1 < len ? i + 1 : -1;
            prv[i] = i - 1;
        }
        for (int32_t i = 0; i + 1 < len; i++) {
            int32_t r = rank_after(&rt, sym[i], sym[i + 1], -1);
            if (r >= 0) heap[hn++] = ((int64_t)r << 32) | (uint32_t)i;
        }
        for (int64_t i = hn / 2 - 1; i >= 0; i--) key_sift(heap, hn, i);
        while (hn) {
            int64_t top = key_pop(heap, &hn);
            int32_t r = (int32_t)(top >> 32), p = (int32_t)(top & 0xffffffff);
            /* a symbol merged into its left neighbour has prv -2; a changed pair is stale */
            if (prv[p] == -2) continue;
            int32_t q = nxt[p];
            if (q < 0 || sym[p] != A[r] || sym[q] != B[r]) continue;
            int32_t t = T[r], step = r + 1, after = nxt[q];
            count[r] += c;
            replaced[r] += c;
            if (A[r] == B[r] && after >= 0 && sym[after] == A[r])
                count[r] += c;  /* (b, a) overlapped this site: counted, not merged */
            int32_t node = (int32_t)s->n_token.n;
            if (add_node(s, t, (int32_t)w, s->n_start.v[nodes[p]], step) < 0) goto done;
            s->n_until.v[nodes[p]] = step;
            s->n_until.v[nodes[q]] = step;
            nodes[p] = node;
            sym[p] = t;
            prv[q] = -2;
            nxt[p] = after;
            if (after >= 0) prv[after] = p;
            if (prv[p] >= 0) {
                int32_t x = prv[p];
                int32_t rx = rank_after(&rt, sym[x], t, r);
                if (rx >= 0) key_push(heap, &hn, ((int64_t)rx << 32) | (uint32_t)x);
            }
            if (after >= 0) {
                int32_t ry = rank_after(&rt, t, sym[after], r);
                if (ry >= 0) key_push(heap, &hn, ((int64_t)ry << 32) | (uint32_t)p);
            }
        }
        int32_t k = 0;  /* the word as it stands, written out in place */
        for (int32_t i = 0; i >= 0; i = nxt[i]) {
            sym[k] = sym[i];
            nodes[k++] = nodes[i];
        }
        s->wlen[w] = k;
    }
replayed:
    for (Py_ssize_t k = 0; k < n; k++) score[k] = (double)count[k];
    s->stamp = 1;  /* merges were made: a second replay goes one by one */
    if (count_pairs(s) < 0) goto done;
    res = PyTuple_Pack(3, cnt_o, scr_o, rep_o);
done:
    Py_XDECREF(cnt_o); Py_XDECREF(scr_o); Py_XDECREF(rep_o);
    PyMem_RawFree(rkeys); PyMem_RawFree(rvals); PyMem_RawFree(again); PyMem_RawFree(small);
    PyMem_RawFree(nxt); PyMem_RawFree(prv); PyMem_RawFree(heap);
    PyBuffer_Release(&ab); PyBuffer_Release(&bb); PyBuffer_Release(&tb);
    return res;
}

/* ---- results ------------------------------------------------------------------------ */
/* The nodes in the order of perm (n int32 node ids), four int32 bytes objects, or NULL. */
static PyObject *forest_in(State *s, const int32_t *perm, const Keyed *order, int64_t n) {
    IVec *parts[4] = {&s->n_token, &s->n_word, &s->n_step, &s->n_until};
    PyObject *res = PyTuple_New(4);
    for (int i = 0; res && i < 4; i++) {
        PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * 4));
        if (!b) {
            Py_CLEAR(res);
            break;
        }
        int32_t *dst = (int32_t *)PyBytes_AS_STRING(b);
        const int32_t *x = parts[i]->v;
        if (perm)
            for (int64_t j = 0; j < n; j++) dst[j] = x[perm[j]];
        else
            for (int64_t j = 0; j < n; j++) dst[j] = x[order[j].node];
        PyTuple_SET_ITEM(res, i, b);
        ivec_free(parts[i]);  /* free as we go: the peak stays near one copy */
    }
    return res;
}

/* The state's node v written at item o of the forest's four arrays. */
static inline void copy_node(const State *s, int32_t v, int64_t o, int32_t *tok,
                             int32_t *word, int32_t *step, int32_t *until) {
    tok[o] = s->n_token.v[v];
    word[o] = s->n_word.v[v];
    step[o] = s->n_step.v[v];
    until[o] = s->n_until.v[v];
}

/* The forest after a replay by segments: the state's nodes (in the order of perm, n
 * of them, sorted by start then step) and every segment occurrence's inner nodes, merged
 * by start; at one start the inner nodes come first (a chain of nodes at one start is
 * made in step order, and every inner node is merged away inside the segment before the
 * final one, or any later one, is made). Four int32 bytes objects, or NULL. */
static PyObject *forest_shared(State *s, const int32_t *perm, int64_t n) {
    const struct Shared *sh = s->shared;
    const Segs *g = &sh->g;
    int64_t total = n;
    for (int64_t i = 0; i < g->n; i++) total += g->seg[i].n_occ * (int64_t)g->seg[i].n_inner;
    if (total >= INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many merge sites");
        return NULL;
    }
    /* each distinct segment's inner nodes packed as (token, start, step, until) side by
     * side: an occurrence then reads one short run of memory, not four tables; and where
     * each segment's run is, in a table of its own (small enough to stay in cache, where
     * the segment records are not) */
    typedef struct { int32_t tok, start, step, until; } Inner;
    typedef struct { int32_t at, n; } Run;
    Inner *packed = PyMem_RawMalloc((size_t)(g->inner.n ? g->inner.n : 1) * sizeof(Inner));
    Run *runs = PyMem_RawMalloc((size_t)(g->n ? g->n : 1) * sizeof(Run));
    if (!packed || !runs) {
        PyMem_RawFree(packed); PyMem_RawFree(runs);
        return PyErr_NoMemory();
    }
    for (int64_t i = 0; i < g->n; i++) {
        const Seg *sg = &g->seg[i];
        const int32_t *in = g->inner.v + sg->inner;
        const int32_t *ltok = g->ltok.v + sg->loc, *lstart = g->lstart.v + sg->loc;
        const int32_t *lstep = g->lstep.v + sg->loc, *luntil = g->luntil.v + sg->loc;
        for (int32_t q = 0; q < sg->n_inner; q++) {
            int32_t l = in[q];
            packed[sg->inner + q] = (Inner){ltok[l], lstart[l], lstep[l], luntil[l]};
        }
        runs[i] = (Run){sg->inner, sg->n_inner};
    }
    PyObject *out[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < 4; i++) {
        if (!(out[i] = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * 4)))) {
            for (int j = 0; j < i; j++) Py_DECREF(out[j]);
            PyMem_RawFree(packed);
            return NULL;
        }
        advise_huge(PyBytes_AS_STRING(out[i]), (size_t)total * 4);
    }
    int32_t *tok = (int32_t *)PyBytes_AS_STRING(out[0]), *word = (int32_t *)PyBytes_AS_STRING(out[1]);
    int32_t *step = (int32_t *)PyBytes_AS_STRING(out[2]), *until = (int32_t *)PyBytes_AS_STRING(out[3]);
    const int32_t *st = s->n_start.v;
    int64_t o = 0, j = 0;
    /* the start of the state's next node, kept at hand: most inner nodes come before it */
    int32_t next = n ? st[perm[0]] : INT32_MAX;
    const int32_t *occ = sh->occ_seg.v;
    int64_t n_occ = sh->occ_seg.n;
    for (int64_t i = 0; i < n_occ; i++) {
        /* the occurrences a few ahead: their segments lie anywhere in `packed` */
        if (i + 8 < n_occ) __builtin_prefetch(packed + runs[occ[i + 8]].at);
        Run run = runs[occ[i]];
        int32_t at = sh->occ_start.v[i], w = sh->occ_word.v[i];
        const Inner *in = packed + run.at;
        for (int32_t q = 0; q < run.n; q++) {
            int32_t start = at + in[q].start;
            while (next < start) {  /* the state's nodes before it */
                copy_node(s, perm[j], o++, tok, word, step, until);
                next = ++j < n ? st[perm[j]] : INT32_MAX;
            }
            tok[o] = in[q].tok;
            word[o] = w;
            step[o] = in[q].step;
            until[o++] = in[q].until;
        }
    }
    PyMem_RawFree(packed);
    PyMem_RawFree(runs);
    for (; j < n; j++) copy_node(s, perm[j], o++, tok, word, step, until);
    PyObject *res = PyTuple_New(4);
    for (int i = 0; i < 4; i++) {
        if (res) PyTuple_SET_ITEM(res, i, out[i]);
        else Py_DECREF(out[i]);
    }
    return res;
}

/* forest_shared with the state's nodes in (start, step) order: after a replay by
 * segments they are the replay's, made in corpus order, then the later merges' (a small
 * share); the run already in order is kept, the rest sorted and merged into it, ties
 * by the order made (the counting sort over every start that a word-by-word forest
 * uses costs more). */
static PyObject *forest_shared_sorted(State *s, int64_t n) {
    const int32_t *start = s->n_start.v, *step = s->n_step.v;
#define NODE_KEY(i) (((int64_t)start[i] << 32) | (uint32_t)step[i])
    int64_t n0 = n ? 1 : 0;
    while (n0 < n && NODE_KEY(n0 - 1) < NODE_KEY(n0)) n0++;
    int64_t m = n - n0;
    int32_t *perm = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int32_t));
    Keyed *rest = PyMem_RawMalloc((size_t)(m ? 2 * m : 1) * sizeof(Keyed));
    if (!perm || !rest) {
        PyMem_RawFree(perm); PyMem_RawFree(rest);
        return PyErr_NoMemory();
    }
    for (int64_t i = 0; i < m; i++) rest[i] = (Keyed){NODE_KEY(n0 + i), (int32_t)(n0 + i)};
    sort_keyed(rest, rest + m, m);
    int64_t i = 0, j = 0, o = 0;
    while (i < n0 && j < m)
        perm[o++] = rest[j].key < NODE_KEY(i) ? rest[j++].node : (int32_t)i++;
    while (i < n0) perm[o++] = (int32_t)i++;
    while (j < m) perm[o++] = rest[j++].node;
#undef NODE_KEY
    PyMem_RawFree(rest);
    PyObject *res = forest_shared(s, perm, n);
    PyMem_RawFree(perm);
    return res;
}

/* forest() -> (token, word, step, until): int32 bytes, one item per node, sorted by word,
 * position and step (what SplitLog wants); the state is spent afterwards. */
static PyObject *State_forest(State *s, PyObject *Py_UNUSED(ignored)) {
    CHECK_READY(s);
    if (ensure_leaves(s) < 0) return NULL;
    int64_t n = s->n_token.n, nw = s->n_words;
    /* Nodes are made in step order (every merge after the ones before it, a replay word
     * by word but each word's in step order), and a node's start, corpus-wide, orders
     * the words too: so a stable counting sort by start is the order wanted, checked
     * after. Were steps ever out of order, the nodes are sorted by word, then each
     * word's few nodes by (start, step). After a replay by segments, the state's nodes
     * are sorted otherwise (forest_shared_sorted). */
    int64_t nf = s->n_flat;
    const int32_t *start = s->n_start.v, *step = s->n_step.v;
    if (s->shared) {
        PyObject *res = forest_shared_sorted(s, n);
        if (res) State_clear(s);
        return res;
    }
    int32_t *at = PyMem_RawCalloc((size_t)nf + 1, sizeof(int32_t));
    int32_t *perm = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int32_t));
    if (!at || !perm) {
        PyMem_RawFree(at);
        PyMem_RawFree(perm);
        return PyErr_NoMemory();
    }
    for (int64_t i = 0; i < n; i++) at[start[i] + 1]++;
    for (int64_t x = 0; x < nf; x++) at[x + 1] += at[x];
    for (int64_t i = 0; i < n; i++) perm[at[start[i]]++] = (int32_t)i;
    PyMem_RawFree(at);
    int sorted = 1;
    for (int64_t j = 1; j < n && sorted; j++)
        sorted = start[perm[j - 1]] < start[perm[j]] ||
                 (start[perm[j - 1]] == start[perm[j]] && step[perm[j - 1]] < step[perm[j]]);
    if (sorted) {
        PyObject *res = forest_in(s, perm, NULL, n);
        PyMem_RawFree(perm);
        if (res) State_clear(s);
        return res;
    }
    PyMem_RawFree(perm);
    Keyed *order = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(Keyed));
    int64_t *fill = PyMem_RawCalloc((size_t)nw + 1, sizeof(int64_t));
    if (!order || !fill) {
        PyMem_RawFree(order);
        PyMem_RawFree(fill);
        return PyErr_NoMemory();
    }
    /* bucket the nodes by word (counting sort), then sort each word's few nodes */
    for (int64_t i = 0; i < n; i++) fill[s->n_word.v[i] + 1]++;
    for (int64_t w = 0; w < nw; w++) fill[w + 1] += fill[w];
    for (int64_t i = 0; i < n; i++) {
        Keyed *k = &order[fill[s->n_word.v[i]]++];
        k->key = ((int64_t)start[i] << 32) | (uint32_t)step[i];
        k->node = (int32_t)i;
    }
    Keyed *spare = NULL;  /* sort_keyed's second buffer, as long as the longest word's nodes */
    int64_t longest = 0;
    for (int64_t w = 0, lo = 0; w < nw; w++) {
        if (fill[w] - lo > longest) longest = fill[w] - lo;
        lo = fill[w];
    }
    if (longest > SORT_RUN * 3 / 2 &&
        !(spare = PyMem_RawMalloc((size_t)longest * sizeof(Keyed)))) {
        PyMem_RawFree(fill);
        PyMem_RawFree(order);
        return PyErr_NoMemory();
    }
    for (int64_t w = 0, lo = 0; w < nw; w++) {  /* fill[w] is now the end of word w */
        sort_keyed(order + lo, spare, fill[w] - lo);
        lo = fill[w];
    }
    PyMem_RawFree(fill);
    PyMem_RawFree(spare);
    PyObject *res = forest_in(s, NULL, order, n);
    PyMem_RawFree(order);
    if (res) State_clear(s);
    return res;
}

/* ---- a forest kept for later ------------------------------------------------------------
 * After a replay by segments the forest is held compactly: the state's own nodes, and
 * each distinct segment's inner nodes once with the list of its occurrences (at 5 MB of
 * SuperBPE's stage-2 words, 22,000 segments for 595,000 occurrences, where the forest
 * writes out 3.8 M nodes). forest_later() moves that compact form into a Forest and frees
 * the rest of the state; Forest.arrays() writes the forest out when it is first read. */
typedef struct {
    PyObject_HEAD
    State st;           /* only the forest's tables: the nodes and the segments */
    int written;
} Forest;

static void Forest_dealloc(Forest *f) {
    State_clear(&f->st);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

/* arrays() -> (token, word, step, until): what State.forest() gives; once only. */
static PyObject *Forest_arrays(Forest *f, PyObject *Py_UNUSED(ignored)) {
    if (f->written) {
        PyErr_SetString(PyExc_RuntimeError, "the forest was written out already");
        return NULL;
    }
    PyObject *res = forest_shared_sorted(&f->st, f->st.n_token.n);
    if (res) {
        f->written = 1;
        State_clear(&f->st);
    }
    return res;
}

static PyMethodDef Forest_methods[] = {
    {"arrays", (PyCFunction)Forest_arrays, METH_NOARGS,
     "The merge forest as int32 bytes (token, word, step, until), as State.forest() "
     "gives it; once only."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ForestType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bpeviz.engine._merge.Forest",
    .tp_basicsize = sizeof(Forest),
    .tp_dealloc = (destructor)Forest_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A merge forest kept compactly (after a replay by segments) until written out.",
    .tp_methods = Forest_methods,
};

/* forest_later() -> Forest, or None: after a replay by segments, the forest moved out
 * (the state is spent, as after forest()); None otherwise, the state left as it is (its
 * forest is no smaller kept: call forest()). */
static PyObject *State_forest_later(State *s, PyObject *Py_UNUSED(ignored)) {
    CHECK_READY(s);
    if (!s->shared) Py_RETURN_NONE;
    Forest *f = PyObject_New(Forest, &ForestType);
    if (!f) return NULL;
    memset(&f->st, 0, sizeof(State));  /* an empty state, as State_clear leaves one */
    f->written = 0;
    f->st.n_token = s->n_token; f->st.n_word = s->n_word; f->st.n_start = s->n_start;
    f->st.n_step = s->n_step; f->st.n_until = s->n_until;
    IVec *moved[5] = {&s->n_token, &s->n_word, &s->n_start, &s->n_step, &s->n_until};
    for (int i = 0; i < 5; i++) memset(moved[i], 0, sizeof(IVec));
    f->st.shared = s->shared;
    s->shared = NULL;
    f->st.n_flat = s->n_flat;
    f->st.n_words = s->n_words;
    State_clear(s);
    return (PyObject *)f;
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
    {"replay", (PyCFunction)State_replay, METH_VARARGS,
     "replay(a, b, t[, scan[, segments]]) -> (count, score, replaced): merges 1..n at "
     "once, int32 buffers in, int64 / float64 / int64 bytes out, as n calls to merge() "
     "give; with `segments` (true), each distinct stretch between boundaries no merge "
     "crosses is replayed once; else words of up to `scan` (64) symbols are merged by "
     "scanning, longer ones through a heap."},
    {"forest", (PyCFunction)State_forest, METH_NOARGS,
     "The merge forest as int32 bytes (token, word, step, until), sorted; ends the state."},
    {"forest_later", (PyCFunction)State_forest_later, METH_NOARGS,
     "After a replay by segments, a Forest whose arrays() gives forest() when first read "
     "(it holds the forest compactly, and the state is spent); else None."},
    {"stop_reason", (PyCFunction)State_stop_reason, METH_NOARGS,
     "'no_pairs' or 'min_frequency' once pop_best returned None."},
    {"initial_tokens", (PyCFunction)State_initial_tokens, METH_NOARGS,
     "Symbols in the corpus before any merge, weighted by word counts."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bpeviz.engine._merge.State",
    .tp_basicsize = sizeof(State),
    .tp_dealloc = (destructor)State_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The merge loop's state: pair counts, word index, heap and split log.",
    .tp_methods = State_methods,
    .tp_init = (initproc)State_init,
    .tp_new = PyType_GenericNew,
};

/* ---- snapshot helpers (bpeviz.core.snapshot; NumPy versions there are the reference) ---- */
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
    /* presized: growing a dict of 83,000 words step by step cost a third of the call */
#if PY_VERSION_HEX < 0x030D0000
    PyObject *res = wb.len / 8 == n ? _PyDict_NewPresized(nw) : NULL;
#else /* (3.13 moved the presizing call out of the C API) */
    PyObject *res = wb.len / 8 == n ? PyDict_New() : NULL;
#endif
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
        /* a tuple of strings (or bytes) can hold no cycle: untracked now, as the collector
         * would untrack it at its first pass, no collection has 83,000 new tuples to walk
         * (and the dict of them stays untracked too) */
        int atomic = 1;
        for (Py_ssize_t i = 0; atomic && i < end - pos; i++)
            atomic = !PyObject_GC_IsTracked(PyTuple_GET_ITEM(split, i));
        if (atomic) PyObject_GC_UnTrack(split);
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

/* ==== encoding (bpeviz.core.encoding; its pure-Python code is the reference) ================
 * Ranks: (left id, right id) -> (rank, merged id) for the first k merges, and merge(), a
 * port of encoding.merge_word (scan) and _merge_with_heap (long words).
 * Coder: a whole text at once -- the pre-tokenizer (whitespace, GPT-2's pattern or
 * lines, read from a table of character classes that the regex module itself computed,
 * see encoding._char_classes), a per-word cache, byte-level BPE words merged here, any
 * other word handed to a Python function (the encoder's own), and every token laid out
 * flat with its character offsets. tests/engine/test_compiled_engine_matches_python.py checks both paths agree. */

#define NO_KEY UINT64_MAX
#define HEAP_FROM 48 /* encoding._HEAP_FROM */

typedef struct { uint64_t key; int32_t rank, token; } RankSlot;

typedef struct {
    PyObject_HEAD
    RankSlot *slots;
    uint64_t mask;
    Py_ssize_t n;
} Ranks;

static inline int rank_of(const Ranks *r, int32_t a, int32_t b, int32_t *rank, int32_t *token) {
    if (a < 0 || b < 0) return 0;
    uint64_t key = pair_key(a, b);
    for (uint64_t h = mix(key) & r->mask;; h = (h + 1) & r->mask) {
        const RankSlot *s = &r->slots[h];
        if (s->key == key) { *rank = s->rank; *token = s->token; return 1; }
        if (s->key == NO_KEY) return 0;
    }
}

static void Ranks_dealloc(Ranks *r) {
    PyMem_RawFree(r->slots);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

/* Ranks(left, right, rank, token): int32 arrays, one entry per merge in step order; a
 * pair seen twice keeps its first entry (dict.setdefault in the Python encoder). */
static int Ranks_init(Ranks *r, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"left", "right", "rank", "token", NULL};
    PyObject *o[4];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO", kwlist, &o[0], &o[1], &o[2], &o[3]))
        return -1;
    if (r->slots) {  /* a Coder may be reading them */
        PyErr_SetString(PyExc_TypeError, "a Ranks object is initialised once");
        return -1;
    }
    Py_buffer b[4];
    int got = 0, rc = -1;
    static const char *what[4] = {"left", "right", "rank", "token"};
    for (; got < 4; got++)
        if (get_buffer(o[got], &b[got], 4, what[got]) < 0) goto done;
    Py_ssize_t n = b[0].len / 4;
    for (int i = 1; i < 4; i++)
        if (b[i].len / 4 != n) {
            PyErr_SetString(PyExc_ValueError, "left, right, rank and token differ in length");
            goto done;
        }
    uint64_t cap = 4;
    while (cap < 2 * (uint64_t)n) cap *= 2;
    RankSlot *slots = PyMem_RawMalloc(cap * sizeof(RankSlot));
    if (!slots) { PyErr_NoMemory(); goto done; }
    for (uint64_t h = 0; h < cap; h++) slots[h].key = NO_KEY;
    const int32_t *left = b[0].buf, *right = b[1].buf, *rank = b[2].buf, *token = b[3].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (left[i] < 0 || right[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "merge ids must not be negative");
            PyMem_RawFree(slots);
            goto done;
        }
        uint64_t key = pair_key(left[i], right[i]);
        uint64_t h = mix(key) & (cap - 1);
        while (slots[h].key != NO_KEY && slots[h].key != key) h = (h + 1) & (cap - 1);
        if (slots[h].key == NO_KEY) {
            slots[h].key = key;
            slots[h].rank = rank[i];
            slots[h].token = token[i];
        }
    }
    r->slots = slots;
    r->mask = cap - 1;
    r->n = n;
    rc = 0;
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return rc;
}

typedef struct { int32_t rank, pos, token; } HeapItem;

static inline int heap_less(const HeapItem *x, const HeapItem *y) {
    if (x->rank != y->rank) return x->rank < y->rank;
    if (x->pos != y->pos) return x->pos < y->pos;
    return x->token < y->token;
}

static int hitem_push(HeapItem **heap, Py_ssize_t *n, Py_ssize_t *cap, HeapItem item) {
    if (*n == *cap) {
        Py_ssize_t nc = *cap ? 2 * *cap : 64;
        HeapItem *h = PyMem_RawRealloc(*heap, (size_t)nc * sizeof(HeapItem));
        if (!h) { PyErr_NoMemory(); return -1; }
        *heap = h;
        *cap = nc;
    }
    HeapItem *h = *heap;
    Py_ssize_t i = (*n)++;
    while (i > 0) {
        Py_ssize_t p = (i - 1) / 2;
        if (!heap_less(&item, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = item;
    return 0;
}

static HeapItem hitem_pop(HeapItem *h, Py_ssize_t *n) {
    HeapItem top = h[0], last = h[--(*n)];
    Py_ssize_t i = 0, m = *n;
    for (;;) {
        Py_ssize_t c = 2 * i + 1;
        if (c >= m) break;
        if (c + 1 < m && heap_less(&h[c + 1], &h[c])) c++;
        if (!heap_less(&h[c], &last)) break;
        h[i] = h[c];
        i = c;
    }
    if (m) h[i] = last;
    return top;
}

/* Merge ids[0..n) in place, as encoding.merge_word does: the leftmost occurrence of the
 * lowest-ranked pair, again and again. first[t] gets the position of output symbol t's
 * first initial symbol. Returns the number of symbols left, or -1 (MemoryError). */
static Py_ssize_t rank_merge(const Ranks *r, int32_t *ids, int32_t *first, Py_ssize_t n) {
    int32_t rk = 0, tk = 0;
    if (n < HEAP_FROM) {
        int64_t pr[HEAP_FROM];  /* rank of pair (i, i + 1); INT64_MAX: none */
        int32_t pt[HEAP_FROM];
        for (Py_ssize_t i = 0; i < n; i++) first[i] = (int32_t)i;
        for (Py_ssize_t i = 0; i + 1 < n; i++) {
            pr[i] = rank_of(r, ids[i], ids[i + 1], &rk, &tk) ? rk : INT64_MAX;
            pt[i] = tk;
        }
        while (n > 1) {
            Py_ssize_t at = -1;
            int64_t best = INT64_MAX;
            for (Py_ssize_t i = 0; i + 1 < n; i++)
                if (pr[i] < best) { best = pr[i]; at = i; }
            if (at < 0) break;
            ids[at] = pt[at];
            Py_ssize_t tail = n - at - 2;  /* symbols after the merged pair */
            memmove(ids + at + 1, ids + at + 2, (size_t)tail * sizeof(int32_t));
            memmove(first + at + 1, first + at + 2, (size_t)tail * sizeof(int32_t));
            if (tail > 1) {
                memmove(pr + at + 1, pr + at + 2, (size_t)(tail - 1) * sizeof(int64_t));
                memmove(pt + at + 1, pt + at + 2, (size_t)(tail - 1) * sizeof(int32_t));
            }
            n--;
            if (at > 0) {
                pr[at - 1] = rank_of(r, ids[at - 1], ids[at], &rk, &tk) ? rk : INT64_MAX;
                pt[at - 1] = tk;
            }
            if (at + 1 < n) {
                pr[at] = rank_of(r, ids[at], ids[at + 1], &rk, &tk) ? rk : INT64_MAX;
                pt[at] = tk;
            }
        }
        return n;
    }
    /* long words: a heap of (rank, position), stale entries skipped (_merge_with_heap) */
    int32_t *nxt = PyMem_RawMalloc((size_t)n * sizeof(int32_t));
    int32_t *prev = PyMem_RawMalloc((size_t)n * sizeof(int32_t));
    uint8_t *alive = PyMem_RawMalloc((size_t)n);
    HeapItem *heap = NULL;
    Py_ssize_t hn = 0, hcap = 0, out = -1;
    if (!nxt || !prev || !alive) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        nxt[i] = (int32_t)(i + 1);
        prev[i] = (int32_t)(i - 1);
        alive[i] = 1;
    }
    for (Py_ssize_t i = 0; i + 1 < n; i++)
        if (rank_of(r, ids[i], ids[i + 1], &rk, &tk)) {
            HeapItem it = {rk, (int32_t)i, tk};
            if (hitem_push(&heap, &hn, &hcap, it) < 0) goto done;
        }
    while (hn) {
        HeapItem it = hitem_pop(heap, &hn);
        int32_t i = it.pos, j = nxt[i];
        if (!alive[i] || j >= n || !rank_of(r, ids[i], ids[j], &rk, &tk) || rk != it.rank ||
            tk != it.token)
            continue;  /* stale: one of the two symbols has changed since */
        ids[i] = it.token;
        alive[j] = 0;
        nxt[i] = nxt[j];
        if (nxt[j] < n) prev[nxt[j]] = i;
        int32_t p = prev[i], q = nxt[i];
        if (p >= 0 && rank_of(r, ids[p], ids[i], &rk, &tk)) {
            HeapItem e = {rk, p, tk};
            if (hitem_push(&heap, &hn, &hcap, e) < 0) goto done;
        }
        if (q < n && rank_of(r, ids[i], ids[q], &rk, &tk)) {
            HeapItem e = {rk, i, tk};
            if (hitem_push(&heap, &hn, &hcap, e) < 0) goto done;
        }
    }
    out = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (alive[i]) {
            ids[out] = ids[i];
            first[out++] = (int32_t)i;
        }
done:
    PyMem_RawFree(nxt);
    PyMem_RawFree(prev);
    PyMem_RawFree(alive);
    PyMem_RawFree(heap);
    return out;
}

/* merge(ids, starts, ends) -> (ids, starts, ends): encoding.merge_word with these ranks. */
static PyObject *Ranks_merge(Ranks *r, PyObject *args) {
    PyObject *io, *so, *eo;
    if (!PyArg_ParseTuple(args, "OOO", &io, &so, &eo)) return NULL;
    PyObject *ids_in = PySequence_Fast(io, "ids must be a sequence");
    PyObject *starts = ids_in ? PySequence_Fast(so, "starts must be a sequence") : NULL;
    PyObject *ends = starts ? PySequence_Fast(eo, "ends must be a sequence") : NULL;
    PyObject *res = NULL, *o_ids = NULL, *o_starts = NULL, *o_ends = NULL;
    int32_t *ids = NULL, *first = NULL;
    if (!ends) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(ids_in);
    if (PySequence_Fast_GET_SIZE(starts) != n || PySequence_Fast_GET_SIZE(ends) != n) {
        PyErr_SetString(PyExc_ValueError, "ids, starts and ends differ in length");
        goto done;
    }
    ids = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int32_t));
    first = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int32_t));
    if (!ids || !first) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(ids_in, i));
        if (v == -1 && PyErr_Occurred()) goto done;
        if (v < INT32_MIN || v > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "a symbol id does not fit in 32 bits");
            goto done;
        }
        ids[i] = (int32_t)v;
    }
    Py_ssize_t m = rank_merge(r, ids, first, n);
    if (m < 0) goto done;
    o_ids = PyList_New(m);
    o_starts = PyList_New(m);
    o_ends = PyList_New(m);
    if (!o_ids || !o_starts || !o_ends) goto done;
    for (Py_ssize_t t = 0; t < m; t++) {
        PyObject *v = PyLong_FromLong(ids[t]);
        if (!v) goto done;
        PyList_SET_ITEM(o_ids, t, v);
        PyObject *s = PySequence_Fast_GET_ITEM(starts, first[t]);
        PyObject *e = PySequence_Fast_GET_ITEM(ends, (t + 1 < m ? first[t + 1] : n) - 1);
        Py_INCREF(s);
        Py_INCREF(e);
        PyList_SET_ITEM(o_starts, t, s);
        PyList_SET_ITEM(o_ends, t, e);
    }
    res = PyTuple_Pack(3, o_ids, o_starts, o_ends);
done:
    Py_XDECREF(ids_in);
    Py_XDECREF(starts);
    Py_XDECREF(ends);
    Py_XDECREF(o_ids);
    Py_XDECREF(o_starts);
    Py_XDECREF(o_ends);
    PyMem_RawFree(ids);
    PyMem_RawFree(first);
    return res;
}

static PyMethodDef Ranks_methods[] = {
    {"merge", (PyCFunction)Ranks_merge, METH_VARARGS,
     "merge(ids, starts, ends) -> (ids, starts, ends), as bpeviz.core.encoding.merge_word."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RanksType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bpeviz.engine._merge.Ranks",
    .tp_basicsize = sizeof(Ranks),
    .tp_dealloc = (destructor)Ranks_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Ranks(left, right, rank, token): the merges of one step, for encoding.",
    .tp_methods = Ranks_methods,
    .tp_init = (initproc)Ranks_init,
    .tp_new = PyType_GenericNew,
};

/* ---- Coder ------------------------------------------------------------------------- */
#define CL_L 1    /* \p{L} */
#define CL_N 2    /* \p{N} */
#define CL_S 4    /* \s */
#define CL_WS 8   /* [\s\x1c-\x1f]: what the whitespace pre-tokenizer splits on */
#define N_CODEPOINTS 0x110000
#define FLAG_PARTIAL 1
#define FLAG_UNK 2
enum { SPLIT_WHITESPACE, SPLIT_GPT2, SPLIT_LINES };

typedef struct {
    uint64_t hash;
    int64_t key;      /* the word's code points: keys[key .. key + len) */
    int64_t piece;    /* its tokens: p_*[piece .. piece + n_pieces) */
    int32_t len, n_pieces;
} WordEntry;

typedef struct {
    PyObject_HEAD
    int split;
    Py_buffer classes;      /* one byte of CL_* bits per code point */
    int has_classes;
    Ranks *ranks;           /* set: byte-level words are merged here; else word() is called */
    int32_t byte_ids[256];
    PyObject *id_objs;      /* tuple of the ints 0 .. n - 1, shared by every ids list */
    int64_t limit;          /* words cached before the cache starts afresh */
    int32_t *slot;          /* hash table: index into words, -1 empty */
    int64_t slot_cap;
    WordEntry *words;
    int64_t n_words, words_cap;
    uint32_t *keys;
    int64_t n_keys, keys_cap;
    int32_t *p_id, *p_start, *p_end;
    uint8_t *p_flag;
    int64_t n_pieces, pieces_cap;
} Coder;

static int grow(void **p, int64_t *cap, int64_t need, size_t item) {
    if (need <= *cap) return 0;
    int64_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = PyMem_RawRealloc(*p, (size_t)c * item);
    if (!q) { PyErr_NoMemory(); return -1; }
    *p = q;
    *cap = c;
    return 0;
}

static void coder_forget(Coder *c) {  /* empty the word cache */
    if (c->slot) memset(c->slot, 0xff, (size_t)c->slot_cap * sizeof(int32_t));
    c->n_words = c->n_keys = c->n_pieces = 0;
}

static void Coder_dealloc(Coder *c) {
    if (c->has_classes) PyBuffer_Release(&c->classes);
    Py_XDECREF(c->ranks);
    Py_XDECREF(c->id_objs);
    PyMem_RawFree(c->slot);
    PyMem_RawFree(c->words);
    PyMem_RawFree(c->keys);
    PyMem_RawFree(c->p_id);
    PyMem_RawFree(c->p_start);
    PyMem_RawFree(c->p_end);
    PyMem_RawFree(c->p_flag);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* Coder(split, classes, ranks, byte_ids, id_objs, limit): split 0 whitespace, 1 GPT-2,
 * 2 lines; classes: bytes, one per code point; ranks and byte_ids (256 int32) for native
 * byte-level BPE, or both None; id_objs: tuple(range(len(vocab))). */
static int Coder_init(Coder *c, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"split", "classes", "ranks", "byte_ids", "id_objs", "limit", NULL};
    int split;
    PyObject *classes, *ranks, *byte_ids, *id_objs;
    long long limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOO!L", kwlist, &split, &classes, &ranks,
                                     &byte_ids, &PyTuple_Type, &id_objs, &limit))
        return -1;
    if (c->has_classes || c->slot) {
        PyErr_SetString(PyExc_TypeError, "a Coder is initialised once");
        return -1;
    }
    if (split < SPLIT_WHITESPACE || split > SPLIT_LINES) {
        PyErr_SetString(PyExc_ValueError, "split must be 0, 1 or 2");
        return -1;
    }
    if (limit < 1) {
        PyErr_SetString(PyExc_ValueError, "limit must be positive");
        return -1;
    }
    if (get_buffer(classes, &c->classes, 1, "classes") < 0) return -1;
    c->has_classes = 1;
    if (c->classes.len != N_CODEPOINTS) {
        PyErr_SetString(PyExc_ValueError, "classes must hold one byte per code point");
        return -1;
    }
    if ((ranks == Py_None) != (byte_ids == Py_None)) {
        PyErr_SetString(PyExc_ValueError, "ranks and byte_ids go together");
        return -1;
    }
    if (ranks != Py_None) {
        if (!PyObject_TypeCheck(ranks, &RanksType)) {
            PyErr_SetString(PyExc_TypeError, "ranks must be a Ranks object or None");
            return -1;
        }
        Py_buffer bb;
        if (get_buffer(byte_ids, &bb, 4, "byte_ids") < 0) return -1;
        int ok = bb.len == 256 * 4;
        if (ok) {
            memcpy(c->byte_ids, bb.buf, sizeof(c->byte_ids));
            for (int i = 0; i < 256; i++) ok &= c->byte_ids[i] >= 0;
        }
        PyBuffer_Release(&bb);
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "byte_ids must be 256 ids, none negative");
            return -1;
        }
        Py_INCREF(ranks);
        c->ranks = (Ranks *)ranks;
    }
    Py_INCREF(id_objs);
    c->id_objs = id_objs;
    c->split = split;
    c->limit = limit;
    c->slot_cap = 1024;
    c->slot = PyMem_RawMalloc((size_t)c->slot_cap * sizeof(int32_t));
    if (!c->slot) { PyErr_NoMemory(); return -1; }
    coder_forget(c);
    return 0;
}

#define RD(i) PyUnicode_READ(kind, data, (i))

/* The end of the GPT-2 word starting at i < n: the pattern's alternatives in order,
 *   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
 * (classes L, N, S are disjoint; "other" is none of them). */
static inline Py_ssize_t gpt2_end(const uint8_t *cl, int kind, const void *data,
                                  Py_ssize_t n, Py_ssize_t i) {
    Py_UCS4 ch = RD(i);
    if (ch == '\'' && i + 1 < n) {
        Py_UCS4 d = RD(i + 1);
        if (d == 's' || d == 't' || d == 'm' || d == 'd') return i + 2;
        if (i + 2 < n) {
            Py_UCS4 e = RD(i + 2);
            if ((d == 'r' && e == 'e') || (d == 'v' && e == 'e') || (d == 'l' && e == 'l'))
                return i + 3;
        }
    }
    const int mask = CL_L | CL_N | CL_S;
    Py_ssize_t j = i;
    int k = cl[ch] & mask;
    if (ch == ' ' && i + 1 < n) {  /* ' ?': a space joins a letter, digit or other run */
        int next = cl[RD(i + 1)] & mask;
        if (next != CL_S) { j = i + 1; k = next; }
    }
    if (k != CL_S) {
        Py_ssize_t e = j + 1;
        while (e < n && (cl[RD(e)] & mask) == k) e++;
        return e;
    }
    Py_ssize_t e = i + 1;
    while (e < n && (cl[RD(e)] & CL_S)) e++;
    return e == n || e - i == 1 ? e : e - 1;  /* \s+(?!\S) leaves the last one, else \s+ */
}

/* The next word at or after *pos: [*ws, *we). Returns 0 when there is none. */
static inline int next_word(const Coder *c, int kind, const void *data, Py_ssize_t n,
                            Py_ssize_t *pos, Py_ssize_t *ws, Py_ssize_t *we) {
    const uint8_t *cl = c->classes.buf;
    Py_ssize_t i = *pos, e;
    switch (c->split) {
    case SPLIT_WHITESPACE:
        while (i < n && (cl[RD(i)] & CL_WS)) i++;
        if (i >= n) return 0;
        e = i + 1;
        while (e < n && !(cl[RD(e)] & CL_WS)) e++;
        break;
    case SPLIT_GPT2:
        if (i >= n) return 0;
        e = gpt2_end(cl, kind, data, n, i);
        break;
    default:  /* lines, each with its line break */
        if (i >= n) return 0;
        e = i;
        while (e < n && RD(e) != '\n') e++;
        if (e < n) e++;
    }
    *ws = i;
    *we = *pos = e;
    return 1;
}

/* SuperBPE's stage-2 pattern inside one line (bpeviz.algorithms.superbpe._IN_LINE) at i:
 *   \p{N}{1,3} | ?[^\s\p{L}\p{N}]{2,}[\r/]*\n? | +(?!\S)
 * the end of its match, or -1 when none of the three matches at i. */
static inline Py_ssize_t stage2_match(const uint8_t *cl, int kind, const void *data,
                                      Py_ssize_t n, Py_ssize_t i) {
    const int mask = CL_L | CL_N | CL_S;
    Py_UCS4 ch = RD(i);
    Py_ssize_t e;
    if ((cl[ch] & mask) == CL_N) {
        e = i + 1;
        while (e < n && e - i < 3 && (cl[RD(e)] & mask) == CL_N) e++;
        return e;
    }
    Py_ssize_t j = ch == ' ' ? i + 1 : i;  /* ' ?': a failed run without it fails too */
    e = j;
    while (e < n && !(cl[RD(e)] & mask)) e++;
    if (e - j >= 2) {
        while (e < n && (RD(e) == '\r' || RD(e) == '/')) e++;
        if (e < n && RD(e) == '\n') e++;
        return e;
    }
    if (ch != ' ') return -1;
    e = i;
    while (e < n && RD(e) == ' ') e++;
    if (e == n || (cl[RD(e)] & CL_S)) return e;  /* (?!\S) holds after the whole run */
    return e - i >= 2 ? e - 1 : -1;              /* else after all but its last space */
}

/* The end of the stage-2 training word starting at i < n (superbpe._LINES_REGEX): a match
 * of the pattern, else the stretch up to the next match or line break (its "\n" kept),
 * else a lone "\n". */
static inline Py_ssize_t stage2_end(const uint8_t *cl, int kind, const void *data,
                                    Py_ssize_t n, Py_ssize_t i) {
    if (RD(i) == '\n') return i + 1;
    Py_ssize_t e = stage2_match(cl, kind, data, n, i);
    if (e >= 0) return e;
    e = i + 1;
    while (e < n) {
        Py_UCS4 ch = RD(e);
        if (ch == '\n') return e + 1;
        /* a letter or whitespace other than a space never starts a match */
        if (!(cl[ch] & CL_L) && (ch == ' ' || !(cl[ch] & CL_S)) &&
            stage2_match(cl, kind, data, n, e) >= 0)
            return e;
        e++;
    }
    return e;
}

/* A text being cut by cut() or count(): their arguments (text, split, classes), split
 * checked and the classes' buffer held until scan_end. */
typedef struct {
    PyObject *text;
    int split, kind;
    Py_buffer cb;
    const uint8_t *cl;
    const char *data;
    Py_ssize_t n;
} Scan;

static int scan_start(Scan *sc, PyObject *args) {
    PyObject *classes;
    if (!PyArg_ParseTuple(args, "UiO", &sc->text, &sc->split, &classes)) return -1;
    if (sc->split != SPLIT_GPT2 && sc->split != 3) {
        PyErr_SetString(PyExc_ValueError, "split must be 1 (GPT-2) or 3 (SuperBPE's stage 2)");
        return -1;
    }
    if (get_buffer(classes, &sc->cb, 1, "classes") < 0) return -1;
    if (sc->cb.len != N_CODEPOINTS) {
        PyBuffer_Release(&sc->cb);
        PyErr_SetString(PyExc_ValueError, "classes must hold one byte per code point");
        return -1;
    }
    sc->cl = sc->cb.buf;
    sc->kind = PyUnicode_KIND(sc->text);
    sc->data = PyUnicode_DATA(sc->text);
    sc->n = PyUnicode_GET_LENGTH(sc->text);
    return 0;
}

/* Where the word starting at i ends. */
static inline Py_ssize_t scan_word(const Scan *sc, Py_ssize_t i) {
    return sc->split == SPLIT_GPT2 ? gpt2_end(sc->cl, sc->kind, sc->data, sc->n, i)
                                   : stage2_end(sc->cl, sc->kind, sc->data, sc->n, i);
}

/* cut(text, split, classes) -> the words of text in order, repeats included: split 1 is
 * GPT-2's pattern (gpt2_end), 3 SuperBPE's stage-2 training words (stage2_end); classes
 * as Coder's. What bpeviz.algorithms.superbpe_train counts, without a regex's match
 * objects. */
static PyObject *cut_words(PyObject *Py_UNUSED(m), PyObject *args) {
    Scan sc;
    if (scan_start(&sc, args) < 0) return NULL;
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out && i < sc.n;) {
        Py_ssize_t e = scan_word(&sc, i);
        PyObject *w = PyUnicode_Substring(sc.text, i, e);
        if (!w || PyList_Append(out, w) < 0) Py_CLEAR(out);
        Py_XDECREF(w);
        i = e;
    }
    PyBuffer_Release(&sc.cb);
    return out;
}

/* count(text, split, classes) -> {word: count}: what Counter(cut(...)) gives, in the
 * order words first appear, with a string made for each distinct word only (a text's
 * words repeat: 1.26 M GPT-2 words of 5 MB of prose and code are 31,000 distinct ones). */
typedef struct { Py_ssize_t start, len; int64_t count; uint64_t hash; } Counted;

/* A hash of n bytes, eight at a time. */
static inline uint64_t span_hash(const char *b, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, v;
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        memcpy(&v, b + j, 8);
        h = (h ^ v) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
    }
    v = 0;
    memcpy(&v, b + j, n - j);
    return mix(h ^ v);
}

/* The distinct words of sc's text and their counts, in order of first appearance, into
 * *seen (n_seen of them). Touches no Python object, so it runs without the GIL: 0, -1
 * out of memory, -2 too many distinct words. */
static int count_spans(const Scan *sc, Counted **seen_out, int64_t *n_out) {
    const int kind = sc->kind;
    const char *data = sc->data;
    int64_t n_seen = 0, cap = 1024;
    uint64_t mask = 2047;
    int rc = -1;
    Counted *seen = PyMem_RawMalloc((size_t)cap * sizeof(Counted));
    int32_t *slot = PyMem_RawMalloc((mask + 1) * sizeof(int32_t));
    if (!seen || !slot) goto done;
    memset(slot, 0xff, (mask + 1) * sizeof(int32_t));
    for (Py_ssize_t i = 0; i < sc->n;) {
        Py_ssize_t e = scan_word(sc, i);
        Py_ssize_t len = e - i;
        const char *b = data + i * kind;
        uint64_t h = span_hash(b, (size_t)(len * kind));
        uint64_t x = h & mask;
        for (;; x = (x + 1) & mask) {
            int32_t w = slot[x];
            if (w < 0) break;
            Counted *c = &seen[w];
            if (c->hash == h && c->len == len &&
                !memcmp(data + c->start * kind, b, (size_t)(len * kind))) {
                c->count++;
                goto next;
            }
        }
        if (n_seen >= INT32_MAX) { rc = -2; goto done; }
        if (n_seen == cap) {
            Counted *more = PyMem_RawRealloc(seen, (size_t)cap * 2 * sizeof(Counted));
            if (!more) goto done;
            seen = more;
            cap *= 2;
        }
        seen[n_seen] = (Counted){i, len, 1, h};
        slot[x] = (int32_t)n_seen++;
        if ((uint64_t)n_seen * 2 > mask) {  /* at most half full */
            uint64_t m2 = mask * 2 + 1;
            int32_t *s2 = PyMem_RawMalloc((m2 + 1) * sizeof(int32_t));
            if (!s2) goto done;
            memset(s2, 0xff, (m2 + 1) * sizeof(int32_t));
            for (int64_t w = 0; w < n_seen; w++) {
                uint64_t y = seen[w].hash & m2;
                while (s2[y] >= 0) y = (y + 1) & m2;
                s2[y] = (int32_t)w;
            }
            PyMem_RawFree(slot);
            slot = s2;
            mask = m2;
        }
    next:
        i = e;
    }
    rc = 0;
done:
    PyMem_RawFree(slot);
    if (rc < 0) {
        PyMem_RawFree(seen);
        seen = NULL;
    }
    *seen_out = seen;
    *n_out = n_seen;
    return rc;
}

/* count(): the counting without the GIL (another thread may count another text, or
 * train, meanwhile); the strings made with it. */
static PyObject *count_words(PyObject *Py_UNUSED(m), PyObject *args) {
    Scan sc;
    if (scan_start(&sc, args) < 0) return NULL;
    Counted *seen = NULL;
    int64_t n_seen = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = count_spans(&sc, &seen, &n_seen);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (rc == -1) {
        PyErr_NoMemory();
    } else if (rc == -2) {
        PyErr_SetString(PyExc_OverflowError, "too many distinct words");
    } else {
        out = PyDict_New();
        for (int64_t w = 0; out && w < n_seen; w++) {
            PyObject *word = PyUnicode_Substring(sc.text, seen[w].start,
                                                 seen[w].start + seen[w].len);
            PyObject *count = word ? PyLong_FromLongLong(seen[w].count) : NULL;
            if (!count || PyDict_SetItem(out, word, count) < 0) Py_CLEAR(out);
            Py_XDECREF(word);
            Py_XDECREF(count);
        }
    }
    PyMem_RawFree(seen);
    PyBuffer_Release(&sc.cb);
    return out;
}

static inline uint64_t word_hash(int kind, const void *data, Py_ssize_t s, Py_ssize_t e) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (Py_ssize_t i = s; i < e; i++) h = (h ^ RD(i)) * 0x100000001b3ULL;
    return mix(h ^ (uint64_t)(e - s));
}

static int64_t cache_find(const Coder *c, uint64_t h, int kind, const void *data,
                          Py_ssize_t s, Py_ssize_t len) {
    uint64_t mask = (uint64_t)c->slot_cap - 1;
    for (uint64_t x = h & mask;; x = (x + 1) & mask) {
        int32_t w = c->slot[x];
        if (w < 0) return -1;
        const WordEntry *we = &c->words[w];
        if (we->hash != h || we->len != len) continue;
        const uint32_t *key = c->keys + we->key;
        Py_ssize_t i = 0;
        while (i < len && key[i] == RD(s + i)) i++;
        if (i == len) return w;
    }
}

/* Add a word and its tokens (relative offsets) to the cache; returns its index. */
static int64_t cache_add(Coder *c, uint64_t h, int kind, const void *data, Py_ssize_t s,
                         Py_ssize_t len, int64_t m, const int32_t *ids, const int32_t *starts,
                         const int32_t *ends, const uint8_t *flags) {
    if (len > INT32_MAX || m > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a word too long to cache");
        return -1;
    }
    if (c->n_words >= c->limit || c->n_words >= INT32_MAX - 1) coder_forget(c);
    if (2 * (c->n_words + 1) > c->slot_cap) {  /* keep the table at most half full */
        int64_t cap = c->slot_cap * 2;
        int32_t *slot = PyMem_RawMalloc((size_t)cap * sizeof(int32_t));
        if (!slot) { PyErr_NoMemory(); return -1; }
        memset(slot, 0xff, (size_t)cap * sizeof(int32_t));
        for (int64_t w = 0; w < c->n_words; w++) {
            uint64_t x = c->words[w].hash & (uint64_t)(cap - 1);
            while (slot[x] >= 0) x = (x + 1) & (uint64_t)(cap - 1);
            slot[x] = (int32_t)w;
        }
        PyMem_RawFree(c->slot);
        c->slot = slot;
        c->slot_cap = cap;
    }
    if (grow((void **)&c->words, &c->words_cap, c->n_words + 1, sizeof(WordEntry)) < 0 ||
        grow((void **)&c->keys, &c->keys_cap, c->n_keys + len, sizeof(uint32_t)) < 0)
        return -1;
    if (c->n_pieces + m > c->pieces_cap) {
        int64_t cap = c->pieces_cap, a = cap, b = cap, d = cap;
        if (grow((void **)&c->p_id, &cap, c->n_pieces + m, sizeof(int32_t)) < 0 ||
            grow((void **)&c->p_start, &a, c->n_pieces + m, sizeof(int32_t)) < 0 ||
            grow((void **)&c->p_end, &b, c->n_pieces + m, sizeof(int32_t)) < 0 ||
            grow((void **)&c->p_flag, &d, c->n_pieces + m, sizeof(uint8_t)) < 0)
            return -1;  /* the arrays grown so far are only larger than needed */
        c->pieces_cap = cap;
    }
    WordEntry *we = &c->words[c->n_words];
    we->hash = h;
    we->key = c->n_keys;
    we->len = (int32_t)len;
    we->piece = c->n_pieces;
    we->n_pieces = (int32_t)m;
    for (Py_ssize_t i = 0; i < len; i++) c->keys[c->n_keys + i] = RD(s + i);
    c->n_keys += len;
    memcpy(c->p_id + c->n_pieces, ids, (size_t)m * sizeof(int32_t));
    memcpy(c->p_start + c->n_pieces, starts, (size_t)m * sizeof(int32_t));
    memcpy(c->p_end + c->n_pieces, ends, (size_t)m * sizeof(int32_t));
    memcpy(c->p_flag + c->n_pieces, flags, (size_t)m);
    c->n_pieces += m;
    uint64_t mask = (uint64_t)c->slot_cap - 1, x = h & mask;
    while (c->slot[x] >= 0) x = (x + 1) & mask;
    c->slot[x] = (int32_t)c->n_words;
    return c->n_words++;
}

/* A byte-level word, as encoding._Encoder._bbpe: its UTF-8 bytes merged (as
 * symbols.utf8_bytes and tiktoken read them: a high and a low surrogate together as the
 * one character they encode, any other surrogate as U+FFFD); a token holding part of a
 * character spans the whole character (both code points of a pair), partial. */
#define IS_HIGH(ch) ((ch) >= 0xD800 && (ch) < 0xDC00)
#define IS_LOW(ch) ((ch) >= 0xDC00 && (ch) < 0xE000)
static int64_t native_word(Coder *c, uint64_t h, int kind, const void *data, Py_ssize_t s,
                           Py_ssize_t len) {
    int64_t nb = 0, res = -1;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 ch = RD(s + i);
        if (IS_HIGH(ch) && i + 1 < len && IS_LOW(RD(s + i + 1))) {
            nb += 4;
            i++;
            continue;
        }
        nb += ch < 0x80 ? 1 : ch < 0x800 ? 2 : ch < 0x10000 ? 3 : 4;
    }
    if (nb > INT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "a word too long to encode");
        return -1;
    }
    int32_t stack[6 * 257];  /* words of up to 256 bytes need no allocation */
    int32_t *buf = nb <= 256 ? stack : PyMem_RawMalloc((size_t)(nb + 1) * 6 * sizeof(int32_t));
    if (!buf) { PyErr_NoMemory(); return -1; }
    int32_t *ids = buf, *first = buf + nb, *char_at = first + nb, *starts = char_at + nb + 1,
            *ends = starts + nb;
    uint8_t *flags = (uint8_t *)(ends + nb);  /* nb bytes in the last nb + 5 int32s */
    int64_t b = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 ch = RD(s + i);
        Py_ssize_t at = i;  /* char_at: a pair's bytes all belong to its first code point */
        if (IS_HIGH(ch) && i + 1 < len && IS_LOW(RD(s + i + 1))) {
            ch = 0x10000 + ((ch - 0xD800) << 10) + (RD(s + i + 1) - 0xDC00);
            i++;
        } else if (ch >= 0xD800 && ch < 0xE000) {
            ch = 0xFFFD;  /* a lone surrogate: 3 bytes either way */
        }
        uint8_t u[4];
        int k;
        if (ch < 0x80) { u[0] = (uint8_t)ch; k = 1; }
        else if (ch < 0x800) { u[0] = 0xC0 | (ch >> 6); u[1] = 0x80 | (ch & 0x3F); k = 2; }
        else if (ch < 0x10000) {
            u[0] = 0xE0 | (ch >> 12); u[1] = 0x80 | ((ch >> 6) & 0x3F);
            u[2] = 0x80 | (ch & 0x3F); k = 3;
        } else {
            u[0] = 0xF0 | (ch >> 18); u[1] = 0x80 | ((ch >> 12) & 0x3F);
            u[2] = 0x80 | ((ch >> 6) & 0x3F); u[3] = 0x80 | (ch & 0x3F); k = 4;
        }
        for (int j = 0; j < k; j++, b++) {
            ids[b] = c->byte_ids[u[j]];
            char_at[b] = (int32_t)at;
        }
    }
    char_at[nb] = (int32_t)len;
    Py_ssize_t m = rank_merge(c->ranks, ids, first, (Py_ssize_t)nb);
    if (m < 0) goto done;
    for (Py_ssize_t t = 0; t < m; t++) {
        int32_t bs = first[t], be = t + 1 < m ? first[t + 1] : (int32_t)nb;
        int32_t cs = char_at[bs], k = be;
        while (char_at[k] == char_at[be - 1]) k++;  /* char_at[nb] = len ends the scan */
        int32_t ce = char_at[k];  /* where the character after the token's last byte starts */
        int whole = (bs == 0 || char_at[bs - 1] != cs) && char_at[be] != char_at[be - 1];
        starts[t] = cs;
        ends[t] = ce;
        flags[t] = whole ? 0 : FLAG_PARTIAL;
    }
    res = cache_add(c, h, kind, data, s, len, m, ids, starts, ends, flags);
done:
    if (buf != stack) PyMem_RawFree(buf);
    return res;
}

/* Hand a word to the Python function: word_fn(word) -> (ids, starts, ends, flags), four
 * sequences of ints as encoding._Encoder._encode_word returns them. The function may
 * let other threads run, so the cache is searched again before the word is added. */
static int64_t called_word(Coder *c, PyObject *word_fn, PyObject *text, uint64_t h, int kind,
                           const void *data, Py_ssize_t s, Py_ssize_t len) {
    PyObject *word = PyUnicode_Substring(text, s, s + len);
    if (!word) return -1;
    PyObject *entry = PyObject_CallOneArg(word_fn, word);
    Py_DECREF(word);
    if (!entry) return -1;
    int64_t res = -1;
    PyObject *cols[4] = {NULL, NULL, NULL, NULL};
    int32_t *buf = NULL;
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 4) {
        PyErr_SetString(PyExc_TypeError, "word() must return 4 sequences");
        goto done;
    }
    for (int k = 0; k < 4; k++) {
        cols[k] = PySequence_Fast(PyTuple_GET_ITEM(entry, k), "word() must return sequences");
        if (!cols[k]) goto done;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(cols[0]);
    for (int k = 1; k < 4; k++)
        if (PySequence_Fast_GET_SIZE(cols[k]) != m) {
            PyErr_SetString(PyExc_ValueError, "word() returned columns of different lengths");
            goto done;
        }
    buf = PyMem_RawMalloc((size_t)(m ? m : 1) * 4 * sizeof(int32_t));
    if (!buf) { PyErr_NoMemory(); goto done; }
    for (int k = 0; k < 4; k++)
        for (Py_ssize_t t = 0; t < m; t++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(cols[k], t));
            if (v == -1 && PyErr_Occurred()) goto done;
            if (v < INT32_MIN || v > INT32_MAX || (k == 3 && (v < 0 || v > 255))) {
                PyErr_SetString(PyExc_OverflowError, "word() returned a value out of range");
                goto done;
            }
            buf[k * m + t] = (int32_t)v;
        }
    uint8_t *flags = (uint8_t *)(buf + 3 * m);
    for (Py_ssize_t t = 0; t < m; t++) flags[t] = (uint8_t)buf[3 * m + t];  /* in place */
    res = cache_find(c, h, kind, data, s, len);
    if (res < 0)
        res = cache_add(c, h, kind, data, s, len, m, buf, buf + m, buf + 2 * m, flags);
done:
    for (int k = 0; k < 4; k++) Py_XDECREF(cols[k]);
    Py_DECREF(entry);
    PyMem_RawFree(buf);
    return res;
}

/* The cache index of the word text[s:s + len], encoding it first if need be. */
static inline int64_t coder_word(Coder *c, PyObject *word_fn, PyObject *text, int kind,
                                 const void *data, Py_ssize_t s, Py_ssize_t len) {
    uint64_t h = word_hash(kind, data, s, s + len);
    int64_t w = cache_find(c, h, kind, data, s, len);
    if (w >= 0) return w;
    if (c->ranks) return native_word(c, h, kind, data, s, len);
    return called_word(c, word_fn, text, h, kind, data, s, len);
}

static PyObject *id_list(const Coder *c, const int32_t *ids, int64_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    Py_ssize_t known = PyTuple_GET_SIZE(c->id_objs);
    for (int64_t i = 0; i < n; i++) {
        PyObject *v;
        if (ids[i] >= 0 && ids[i] < known) {
            v = PyTuple_GET_ITEM(c->id_objs, ids[i]);
            Py_INCREF(v);
        } else if (!(v = PyLong_FromLong(ids[i]))) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

/* encode(text, word_fn, offsets) -> (ids, starts, ends, flags): the ids as a list; with
 * offsets, every token's start and end (int64 bytearrays, characters into text) and its
 * flags (a uint8 bytearray: 1 partial, 2 unk; None when all are 0), else three Nones. */
static PyObject *Coder_encode(Coder *c, PyObject *args) {
    PyObject *text, *word_fn;
    int offsets;
    if (!PyArg_ParseTuple(args, "UOp", &text, &word_fn, &offsets)) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), pos = 0, ws, we;
    int32_t *ids = NULL;
    int64_t *starts = NULL, *ends = NULL;
    uint8_t *flags = NULL;
    int64_t m = 0, cap = 0, cap_i = 0, cap_s = 0, cap_e = 0, cap_f = 0;
    int any_flag = 0;
    PyObject *res = NULL, *o_ids = NULL, *o_starts = NULL, *o_ends = NULL, *o_flags = NULL;
    while (next_word(c, kind, data, n, &pos, &ws, &we)) {
        int64_t w = coder_word(c, word_fn, text, kind, data, ws, we - ws);
        if (w < 0) goto done;
        const WordEntry *e = &c->words[w];
        int64_t k = e->n_pieces, p = e->piece;
        if (m + k > cap) {
            int64_t need = cap ? cap : 4096;
            while (need < m + k) need *= 2;
            if (grow((void **)&ids, &cap_i, need, sizeof(int32_t)) < 0 ||
                (offsets && (grow((void **)&starts, &cap_s, need, sizeof(int64_t)) < 0 ||
                             grow((void **)&ends, &cap_e, need, sizeof(int64_t)) < 0 ||
                             grow((void **)&flags, &cap_f, need, sizeof(uint8_t)) < 0)))
                goto done;
            cap = need;
        }
        memcpy(ids + m, c->p_id + p, (size_t)k * sizeof(int32_t));
        if (offsets) {
            for (int64_t t = 0; t < k; t++) {
                starts[m + t] = ws + c->p_start[p + t];
                ends[m + t] = ws + c->p_end[p + t];
                flags[m + t] = c->p_flag[p + t];
                any_flag |= c->p_flag[p + t];
            }
        }
        m += k;
    }
    if (!(o_ids = id_list(c, ids, m))) goto done;
    if (offsets) {
        o_starts = PyByteArray_FromStringAndSize((const char *)starts, (Py_ssize_t)(m * 8));
        o_ends = PyByteArray_FromStringAndSize((const char *)ends, (Py_ssize_t)(m * 8));
        o_flags = any_flag ? PyByteArray_FromStringAndSize((const char *)flags, (Py_ssize_t)m)
                           : Py_NewRef(Py_None);
        if (!o_starts || !o_ends || !o_flags) goto done;
    } else {
        o_starts = Py_NewRef(Py_None);
        o_ends = Py_NewRef(Py_None);
        o_flags = Py_NewRef(Py_None);
    }
    res = PyTuple_Pack(4, o_ids, o_starts, o_ends, o_flags);
done:
    Py_XDECREF(o_ids);
    Py_XDECREF(o_starts);
    Py_XDECREF(o_ends);
    Py_XDECREF(o_flags);
    PyMem_RawFree(ids);
    PyMem_RawFree(starts);
    PyMem_RawFree(ends);
    PyMem_RawFree(flags);
    return res;
}

/* word(word, word_fn) -> (ids, starts, ends, flags): one pre-tokenized word's tokens,
 * as tuples, from the cache (encoding it first if need be). */
static PyObject *Coder_word(Coder *c, PyObject *args) {
    PyObject *word, *word_fn;
    if (!PyArg_ParseTuple(args, "UO", &word, &word_fn)) return NULL;
    int kind = PyUnicode_KIND(word);
    const void *data = PyUnicode_DATA(word);
    int64_t w = coder_word(c, word_fn, word, kind, data, 0, PyUnicode_GET_LENGTH(word));
    if (w < 0) return NULL;
    /* copied out first: making Python objects may run other threads, which may change
     * the cache */
    Py_ssize_t m = c->words[w].n_pieces;
    int64_t p0 = c->words[w].piece;
    int32_t *vals = PyMem_RawMalloc((size_t)(m ? m : 1) * 4 * sizeof(int32_t));
    if (!vals) return PyErr_NoMemory();
    memcpy(vals, c->p_id + p0, (size_t)m * sizeof(int32_t));
    memcpy(vals + m, c->p_start + p0, (size_t)m * sizeof(int32_t));
    memcpy(vals + 2 * m, c->p_end + p0, (size_t)m * sizeof(int32_t));
    for (Py_ssize_t t = 0; t < m; t++) vals[3 * m + t] = c->p_flag[p0 + t];
    PyObject *cols[4] = {NULL, NULL, NULL, NULL}, *res = NULL;
    for (int k = 0; k < 4; k++) {
        if (!(cols[k] = PyTuple_New(m))) goto done;
        for (Py_ssize_t t = 0; t < m; t++) {
            PyObject *v = PyLong_FromLong(vals[k * m + t]);
            if (!v) goto done;
            PyTuple_SET_ITEM(cols[k], t, v);
        }
    }
    res = PyTuple_Pack(4, cols[0], cols[1], cols[2], cols[3]);
done:
    for (int k = 0; k < 4; k++) Py_XDECREF(cols[k]);
    PyMem_RawFree(vals);
    return res;
}

static PyObject *Coder_cached(Coder *c, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(c->n_words);
}

#undef RD

static PyMethodDef Coder_methods[] = {
    {"encode", (PyCFunction)Coder_encode, METH_VARARGS,
     "encode(text, word_fn, offsets) -> (ids, starts, ends, flags)."},
    {"word", (PyCFunction)Coder_word, METH_VARARGS,
     "word(word, word_fn) -> (ids, starts, ends, flags) of one word."},
    {"cached", (PyCFunction)Coder_cached, METH_NOARGS, "cached() -> words in the cache."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "bpeviz.engine._merge.Coder",
    .tp_basicsize = sizeof(Coder),
    .tp_dealloc = (destructor)Coder_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Coder(split, classes, ranks, byte_ids, id_objs, limit): encodes whole texts.",
    .tp_methods = Coder_methods,
    .tp_init = (initproc)Coder_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef module_methods[] = {
    {"live", snap_live, METH_VARARGS,
     "live(token, word, step, until, k) -> (ids, word_of) bytearrays (int32, int64)."},
    {"splits", snap_splits, METH_VARARGS,
     "splits(words, vocab, ids, word_of) -> {word: tuple of tokens}."},
    {"pair_counts", snap_pair_counts, METH_VARARGS,
     "pair_counts(ids, word_of, counts) -> (keys, counts) int64 bytearrays, first-seen order."},
    {"cut", cut_words, METH_VARARGS,
     "cut(text, split, classes) -> list of words: split 1 GPT-2's, 3 SuperBPE's stage 2."},
    {"count", count_words, METH_VARARGS,
     "count(text, split, classes) -> {word: count}, words in first-appearance order: "
     "split 1 GPT-2's, 3 SuperBPE's stage 2."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef merge_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "bpeviz.engine._merge",
    .m_doc = "The compiled merge loop of bpeviz.core.training (see PairState in bpeviz.engine.python).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__merge(void) {
    if (PyType_Ready(&StateType) < 0 || PyType_Ready(&RanksType) < 0 ||
        PyType_Ready(&CoderType) < 0 || PyType_Ready(&ForestType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&merge_module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "State", (PyObject *)&StateType) < 0 ||
        PyModule_AddObjectRef(m, "Ranks", (PyObject *)&RanksType) < 0 ||
        PyModule_AddObjectRef(m, "Coder", (PyObject *)&CoderType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
