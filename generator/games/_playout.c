/* Compiled random playouts of two shapes of trick-taking game, Wizard's and Wizard Hearts':
 * whole games between uniformly random players, move for move the games the rules engine
 * (generator/games/trick, the reference) plays from the same random.Random generators when a
 * deck's [rules] have one of these shapes (generator/games/playout_shapes.py reads them and
 * passes the tables below; tests/games/test_games_fastpath.py checks thousands of seeds).
 *
 * Randomness is drawn by calling the generators' own `random()` and `getrandbits(k)`, in
 * the order the Python engines draw it, so the games are the same for any seed. The
 * Python side (generator/games/fastpath.py) passes the card tables and parameters and
 * reads the results back. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAX_PLAYERS 8
#define MAX_CARDS 256   /* distinct cards (indices into deck.cards) */
#define MAX_DECK 512    /* physical cards */
#define MAX_SUITS 16
#define MAX_HAND 128    /* cards in one hand */
#define NO_SUIT (-1)
#define WIZARD_LED (-2)
#define BID 1000
#define TRUMP 2000
#define PASS 3000   /* the rules engine's numbering of a card passed (generator/games/trick/actions.py) */

/* -- the generators ---------------------------------------------------------------------- */
typedef struct {
    PyObject *random;       /* bound rng.random */
    PyObject *getrandbits;  /* bound rng.getrandbits */
} Rng;

static PyObject *small_ints[65];

static int rng_open(Rng *rng, PyObject *obj) {
    rng->random = PyObject_GetAttrString(obj, "random");
    rng->getrandbits = rng->random ? PyObject_GetAttrString(obj, "getrandbits") : NULL;
    return rng->getrandbits ? 0 : -1;
}

static void rng_close(Rng *rng) {
    Py_CLEAR(rng->random);
    Py_CLEAR(rng->getrandbits);
}

/* rng.random(); -1.0 on error */
static double rng_random(Rng *rng) {
    PyObject *value = PyObject_CallNoArgs(rng->random);
    if (!value) return -1.0;
    double x = PyFloat_AsDouble(value);
    Py_DECREF(value);
    return x;
}

/* rng.getrandbits(k) for k <= 63; -1 on error */
static long long rng_bits(Rng *rng, int k) {
    PyObject *value = PyObject_CallOneArg(rng->getrandbits, small_ints[k]);
    if (!value) return -1;
    long long x = PyLong_AsLongLong(value);
    Py_DECREF(value);
    return x;
}

static int bit_length(long long n) {
    int k = 0;
    while (n) { k++; n >>= 1; }
    return k;
}

/* random.Random._randbelow(n) (what randrange(n) does): getrandbits(n.bit_length()) until below n */
static long long rng_below(Rng *rng, long long n) {
    int k = bit_length(n);
    long long r;
    do {
        r = rng_bits(rng, k);
        if (r < 0) return -1;
    } while (r >= n);
    return r;
}

/* A player's uniform pick among `count` options: int(rng.random() * count), as RandomBot picks */
static Py_ssize_t rng_pick(Rng *rng, Py_ssize_t count) {
    double x = rng_random(rng);
    if (x < 0) return -1;
    return (Py_ssize_t)(x * (double)count);
}

/* generator.games.tricks.sample_cards: rng.sample(population, k), draw for draw */
static int sample_cards(Rng *rng, const int *population, int n, int k, int *result) {
    int setsize = 21;
    if (k > 5) {  /* 4 ** ceil(log(3k, 4)), in integers */
        long long power = 1;
        while (power < 3LL * k) power *= 4;
        setsize += (int)power;
    }
    if (n <= setsize) {
        int pool[MAX_DECK];
        memcpy(pool, population, sizeof(int) * n);
        for (int i = 0; i < k; i++) {
            int left = n - i;
            int bits = bit_length(left);
            long long j;
            do {
                j = rng_bits(rng, bits);
                if (j < 0) return -1;
            } while (j >= left);
            result[i] = pool[j];
            pool[j] = pool[left - 1];
        }
    } else {
        char picked[MAX_DECK];
        memset(picked, 0, n);
        int bits = bit_length(n);
        for (int i = 0; i < k; i++) {
            long long j;
            do {
                j = rng_bits(rng, bits);
                if (j < 0) return -1;
            } while (j >= n || picked[j]);
            picked[j] = 1;
            result[i] = population[j];
        }
    }
    return 0;
}

/* -- reading the tables passed from Python -------------------------------------------------- */
static int read_ints(PyObject *seq, int *out, int limit, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at most %d", what, n, limit);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int open_rngs(PyObject *chance_obj, PyObject *bots_obj, Rng *chance, Rng *bots, int players) {
    memset(bots, 0, sizeof(Rng) * MAX_PLAYERS);
    chance->random = chance->getrandbits = NULL;
    if (rng_open(chance, chance_obj) < 0) return -1;
    if (!PySequence_Check(bots_obj) || PySequence_Size(bots_obj) != players) {
        PyErr_SetString(PyExc_ValueError, "one generator per player");
        return -1;
    }
    for (int seat = 0; seat < players; seat++) {
        PyObject *obj = PySequence_GetItem(bots_obj, seat);
        if (!obj) return -1;
        int failed = rng_open(&bots[seat], obj);
        Py_DECREF(obj);
        if (failed) return -1;
    }
    return 0;
}

static void close_rngs(Rng *chance, Rng *bots) {
    rng_close(chance);
    for (int seat = 0; seat < MAX_PLAYERS; seat++) rng_close(&bots[seat]);
}

/* Append an int to the trace list when one is kept */
static int trace_add(PyObject *trace, long value) {
    if (trace == Py_None) return 0;
    PyObject *item = PyLong_FromLong(value);
    if (!item) return -1;
    int failed = PyList_Append(trace, item);
    Py_DECREF(item);
    return failed;
}

/* A hand: cards in hand order, and the same cards split by suit (suitless cards last) */
typedef struct {
    int cards[MAX_HAND];
    int size;
} Pile;

static void pile_remove_at(Pile *pile, int position) {
    memmove(pile->cards + position, pile->cards + position + 1, sizeof(int) * (pile->size - position - 1));
    pile->size--;
}

static int pile_find(const Pile *pile, int card) {
    for (int i = 0; i < pile->size; i++)
        if (pile->cards[i] == card) return i;
    return -1;
}

/* Append the cards of `pile` not yet in out[0..*count) (first copies, in order); `seen`
 * marks what out holds and is all clear again once forget_seen runs */
static void add_unseen(const Pile *pile, int *out, int *count, char *seen) {
    for (int i = 0; i < pile->size; i++) {
        int card = pile->cards[i];
        if (!seen[card]) {
            seen[card] = 1;
            out[(*count)++] = card;
        }
    }
}

static void forget_seen(const int *out, int count, char *seen) {
    for (int i = 0; i < count; i++) seen[out[i]] = 0;
}

/* Append the distinct cards of `pile` (first copies, in order) to out[*count], which is empty */
static void add_distinct(const Pile *pile, int *out, int *count, char *seen) {
    add_unseen(pile, out, count, seen);
    forget_seen(out, *count, seen);
}

/* -- Wizard ------------------------------------------------------------------------------- */
#define TURNED_WIZARD (-3)  /* turned_trump of a Wizard: the dealer chooses */
enum { R_NONE, R_EVERY_ROUND, R_FINAL_ROUND, R_NEVER_EVEN };

static PyObject *wizard_playout(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"players", "rounds", "restriction", "num_suits", "physical", "suit", "rank",
                               "turned_trump", "chance_rng", "bot_rngs", "trace", NULL};
    int players, rounds, restriction, num_suits;
    PyObject *physical_obj, *suit_obj, *rank_obj, *turned_obj, *chance_obj, *bots_obj, *trace;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiiiOOOOOOO", keywords, &players, &rounds, &restriction,
                                     &num_suits, &physical_obj, &suit_obj, &rank_obj, &turned_obj, &chance_obj,
                                     &bots_obj, &trace))
        return NULL;
    if (players < 1 || players > MAX_PLAYERS || num_suits < 1 || num_suits >= MAX_SUITS) {
        PyErr_SetString(PyExc_ValueError, "players or suits out of range");
        return NULL;
    }
    int physical[MAX_DECK], suit_of[MAX_CARDS], rank_of[MAX_CARDS], turned_trump[MAX_CARDS];
    int total = read_ints(physical_obj, physical, MAX_DECK, "physical");
    int distinct = read_ints(suit_obj, suit_of, MAX_CARDS, "suit");
    if (total < 0 || distinct < 0 || read_ints(rank_obj, rank_of, MAX_CARDS, "rank") < 0
        || read_ints(turned_obj, turned_trump, MAX_CARDS, "turned_trump") < 0)
        return NULL;
    if (rounds * players > total || rounds > MAX_HAND) {
        PyErr_SetString(PyExc_ValueError, "more cards dealt than the deck has, or than a hand holds");
        return NULL;
    }
    Rng chance, bots[MAX_PLAYERS];
    PyObject *result = NULL;
    if (open_rngs(chance_obj, bots_obj, &chance, bots, players) < 0) goto done;

    static Pile hands[MAX_PLAYERS], by_suit[MAX_PLAYERS][MAX_SUITS + 1];
    int totals[MAX_PLAYERS] = {0}, bid_sums[MAX_PLAYERS] = {0}, bids[MAX_PLAYERS], won[MAX_PLAYERS];
    int repeats[MAX_PLAYERS], undealt[MAX_CARDS], order[MAX_DECK], options[MAX_DECK], trick[MAX_PLAYERS];
    char seen[MAX_CARDS];
    memset(seen, 0, sizeof(seen));
    long actions = 0, decisions = 0;
    const int free_slot = num_suits;  /* by_suit index of Wizards and Jesters */

    long long dealer = rng_below(&chance, players);  /* ChooseSeat */
    if (dealer < 0) goto done;
    actions++;
    for (int round = 0; round < rounds; round++) {
        int size = round + 1, dealt = size * players;
        /* the deal: sample_cards, then deal_hands from the dealer's left */
        if (sample_cards(&chance, physical, total, dealt, order) < 0) goto done;
        actions++;
        for (int card = 0; card < distinct; card++) undealt[card] = 0;
        for (int i = 0; i < total; i++) undealt[physical[i]]++;
        for (int offset = 0; offset < players; offset++) {
            int seat = (int)((dealer + 1 + offset) % players);
            Pile *hand = &hands[seat];
            hand->size = 0;
            for (int s = 0; s <= num_suits; s++) by_suit[seat][s].size = 0;
            for (int i = offset; i < dealt; i += players) {
                int card = order[i];
                hand->cards[hand->size++] = card;
                int slot = suit_of[card] >= 0 ? suit_of[card] : free_slot;
                Pile *same = &by_suit[seat][slot];
                same->cards[same->size++] = card;
                undealt[card]--;
            }
            /* cards that repeat one held earlier */
            int distinct_held = 0;
            add_distinct(hand, options, &distinct_held, seen);
            repeats[seat] = hand->size - distinct_held;
        }
        /* trump: the next card turned, none in the final round */
        int trump = NO_SUIT;
        if (dealt < total) {
            long long position = rng_below(&chance, total - dealt);
            if (position < 0) goto done;
            actions++;
            int card = 0;
            long long running = 0;
            for (card = 0; card < distinct; card++) {  /* bisect_right over the running counts */
                running += undealt[card];
                if (running > position) break;
            }
            if (turned_trump[card] == TURNED_WIZARD) {  /* the dealer names a suit */
                Py_ssize_t pick = rng_pick(&bots[dealer], num_suits);
                if (pick < 0) goto done;
                trump = (int)pick;
                actions++, decisions++;
                if (trace_add(trace, TRUMP + trump) < 0) goto done;
            } else {
                trump = turned_trump[card];  /* NO_SUIT for a Jester */
            }
        }
        /* bids, from the dealer's left */
        int bids_total = 0;
        for (int k = 0; k < players; k++) {
            int seat = (int)((dealer + 1 + k) % players);
            int forbidden = -1;
            if (k == players - 1 && restriction != R_NONE) {
                int ahead = 1;
                for (int other = 0; other < players; other++)
                    if (other != seat && totals[other] >= totals[seat]) ahead = 0;
                int even = size - bids_total;
                int final = round + 1 == rounds;
                if (even >= 0 && even <= size) {
                    if (restriction == R_NEVER_EVEN) forbidden = even;
                    else if (!(restriction == R_FINAL_ROUND && !final) && ahead && even != 0) forbidden = even;
                }
            }
            int count = 0;
            for (int b = 0; b <= size; b++)
                if (b != forbidden) options[count++] = b;
            Py_ssize_t pick = rng_pick(&bots[seat], count);
            if (pick < 0) goto done;
            bids[seat] = options[pick];
            bids_total += bids[seat];
            actions++, decisions++;
            if (trace_add(trace, BID + bids[seat]) < 0) goto done;
        }
        /* the tricks */
        for (int seat = 0; seat < players; seat++) won[seat] = 0;
        int leader = (int)((dealer + 1) % players);
        for (int number = 0; number < size; number++) {
            int led = NO_SUIT;
            for (int k = 0; k < players; k++) {
                int seat = (leader + k) % players;
                Pile *hand = &hands[seat];
                int count = 0;
                if (led >= 0 && by_suit[seat][led].size) {  /* follow: the led suit, then Wizards and Jesters */
                    Pile *same = &by_suit[seat][led];
                    if (repeats[seat]) {
                        add_unseen(same, options, &count, seen);
                        add_unseen(&by_suit[seat][free_slot], options, &count, seen);
                        forget_seen(options, count, seen);
                    } else {
                        memcpy(options, same->cards, sizeof(int) * same->size);
                        count = same->size;
                        Pile *free_cards = &by_suit[seat][free_slot];
                        memcpy(options + count, free_cards->cards, sizeof(int) * free_cards->size);
                        count += free_cards->size;
                    }
                } else if (repeats[seat]) {
                    add_distinct(hand, options, &count, seen);
                } else {
                    memcpy(options, hand->cards, sizeof(int) * hand->size);
                    count = hand->size;
                }
                Py_ssize_t pick = rng_pick(&bots[seat], count);
                if (pick < 0) goto done;
                int card = options[pick];
                actions++, decisions++;
                if (trace_add(trace, card) < 0) goto done;
                int suit = suit_of[card];
                if (led == NO_SUIT) {
                    if (suit >= 0) led = suit;
                    else if (turned_trump[card] == TURNED_WIZARD) led = WIZARD_LED;
                }
                Pile *same = &by_suit[seat][suit >= 0 ? suit : free_slot];
                pile_remove_at(same, pile_find(same, card));
                if (repeats[seat] && pile_find(same, card) >= 0) repeats[seat]--;
                pile_remove_at(hand, pile_find(hand, card));
                trick[k] = card;
            }
            /* the first card of the highest claim wins (wizard.trick.winner) */
            int best = 0, best_claim = -2;
            for (int k = 0; k < players; k++) {
                int card = trick[k], suit = suit_of[card], claim;
                if (turned_trump[card] == TURNED_WIZARD) claim = 1000;
                else if (suit == NO_SUIT) claim = -1;
                else if (suit == trump) claim = 100 + rank_of[card];
                else claim = suit == led ? rank_of[card] : -1;
                if (claim > best_claim) { best_claim = claim; best = k; }
            }
            leader = (leader + best) % players;
            won[leader]++;
        }
        for (int seat = 0; seat < players; seat++) {
            int miss = won[seat] - bids[seat];
            totals[seat] += miss == 0 ? 20 + 10 * won[seat] : -10 * (miss < 0 ? -miss : miss);
            bid_sums[seat] += bids[seat];
        }
        dealer = (dealer + 1) % players;
    }
    PyObject *scores = PyTuple_New(players), *sums = PyTuple_New(players);
    if (!scores || !sums) { Py_XDECREF(scores); Py_XDECREF(sums); goto done; }
    for (int seat = 0; seat < players; seat++) {
        PyTuple_SET_ITEM(scores, seat, PyLong_FromLong(totals[seat]));
        PyTuple_SET_ITEM(sums, seat, PyLong_FromLong(bid_sums[seat]));
    }
    result = Py_BuildValue("(NNllii)", scores, sums, actions, decisions, rounds, 0);

done:
    close_rngs(&chance, bots);
    return result;
}

/* -- Wizard Hearts ------------------------------------------------------------------------ */
typedef struct {
    double key;
    int index;
} Keyed;

static int by_key(const void *a, const void *b) {  /* Python's stable sort by random keys */
    const Keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index - y->index;
}

#define HOLD 1000  /* a pass offset meaning nobody passes */

static PyObject *hearts_playout(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"players", "max_hands", "target", "pass_count", "pass_offsets", "luck", "lead_card",
                               "cauldron_to_first_trick", "shun_must_be_broken", "num_suits", "physical", "suit",
                               "rank", "queen", "points", "chance_rng", "bot_rngs", "trace", NULL};
    int players, max_hands, target, pass_count, luck, lead_card, to_first_trick, must_break, num_suits;
    PyObject *offsets_obj, *physical_obj, *suit_obj, *rank_obj, *queen_obj, *points_obj, *chance_obj, *bots_obj,
        *trace;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iiiiOiippiOOOOOOOO", keywords, &players, &max_hands, &target,
                                     &pass_count, &offsets_obj, &luck, &lead_card, &to_first_trick, &must_break,
                                     &num_suits, &physical_obj, &suit_obj, &rank_obj, &queen_obj, &points_obj,
                                     &chance_obj, &bots_obj, &trace))
        return NULL;
    if (players < 1 || players > MAX_PLAYERS || num_suits < 1 || num_suits >= MAX_SUITS) {
        PyErr_SetString(PyExc_ValueError, "players or suits out of range");
        return NULL;
    }
    int physical[MAX_DECK], suit_of[MAX_CARDS], rank_of[MAX_CARDS], queen_of[MAX_SUITS], offsets[64];
    static int points_of[MAX_SUITS][MAX_CARDS];
    int total = read_ints(physical_obj, physical, MAX_DECK, "physical");
    int distinct = read_ints(suit_obj, suit_of, MAX_CARDS, "suit");
    int cycle = read_ints(offsets_obj, offsets, 64, "pass_offsets");
    if (total < 0 || distinct < 0 || cycle < 1 || read_ints(rank_obj, rank_of, MAX_CARDS, "rank") < 0
        || read_ints(queen_obj, queen_of, MAX_SUITS, "queen") < num_suits)
        goto bad_tables;
    PyObject *points_fast = PySequence_Fast(points_obj, "points");
    if (!points_fast) return NULL;
    if (PySequence_Fast_GET_SIZE(points_fast) != num_suits) { Py_DECREF(points_fast); goto bad_tables; }
    for (int suit = 0; suit < num_suits; suit++)
        if (read_ints(PySequence_Fast_GET_ITEM(points_fast, suit), points_of[suit], MAX_CARDS, "points") < 0) {
            Py_DECREF(points_fast);
            return NULL;
        }
    Py_DECREF(points_fast);
    int size = total / players, cut = size * players;
    if (size > MAX_HAND - pass_count || pass_count > size) goto bad_tables;

    Rng chance, bots[MAX_PLAYERS];
    PyObject *result = NULL;
    if (open_rngs(chance_obj, bots_obj, &chance, bots, players) < 0) goto done;

    static Pile hands[MAX_PLAYERS], by_suit[MAX_PLAYERS][MAX_SUITS + 1], passed[MAX_PLAYERS];
    static Keyed keyed[MAX_DECK];
    int totals[MAX_PLAYERS] = {0}, hand_points[MAX_PLAYERS], order[MAX_DECK], options[MAX_DECK], trick[MAX_PLAYERS];
    char seen[MAX_CARDS];
    memset(seen, 0, sizeof(seen));
    const int free_slot = num_suits;
    long actions = 0, decisions = 0;
    int hands_played = 0, capped = 0;

    long long dealer = rng_below(&chance, players);  /* ChooseSeat */
    if (dealer < 0) goto done;
    actions++;
    for (int round = 0;; round++) {
        /* the Shun suit: cards turned until one is not Luck */
        int shun;
        do {
            long long position = rng_below(&chance, total);
            if (position < 0) goto done;
            shun = suit_of[physical[position]];
        } while (shun == luck);
        if (shun < 0 || queen_of[shun] < 0) {
            PyErr_SetString(PyExc_ValueError, "a turned suit with no Opposite Queen");
            goto done;
        }
        actions++;
        int queen = queen_of[shun];
        const int *points = points_of[shun];
        /* the deal: shuffled(physical), dealt from the dealer's left, the rest set aside */
        for (int i = 0; i < total; i++) {
            double key = rng_random(&chance);
            if (key < 0) goto done;
            keyed[i].key = key;
            keyed[i].index = i;
        }
        qsort(keyed, total, sizeof(Keyed), by_key);
        for (int i = 0; i < total; i++) order[i] = physical[keyed[i].index];
        actions++;
        for (int offset = 0; offset < players; offset++) {
            Pile *hand = &hands[(dealer + 1 + offset) % players];
            hand->size = 0;
            for (int i = offset; i < cut; i += players) hand->cards[hand->size++] = order[i];
        }
        for (int seat = 0; seat < players; seat++) hand_points[seat] = 0;
        /* passing, from the dealer's left: one decision per card */
        int offset = offsets[round % cycle];
        if (offset != HOLD && pass_count > 0) {
            for (int k = 0; k < players; k++) {
                int seat = (int)((dealer + 1 + k) % players);
                Pile *hand = &hands[seat];
                passed[seat].size = 0;
                for (int p = 0; p < pass_count; p++) {
                    int count = 0;
                    add_distinct(hand, options, &count, seen);
                    Py_ssize_t pick = rng_pick(&bots[seat], count);
                    if (pick < 0) goto done;
                    int card = options[pick];
                    pile_remove_at(hand, pile_find(hand, card));
                    passed[seat].cards[passed[seat].size++] = card;
                    actions++, decisions++;
                    if (trace_add(trace, PASS + card) < 0) goto done;
                }
            }
            for (int giver = 0; giver < players; giver++) {
                int receiver = (giver + offset + players) % players;
                Pile *hand = &hands[receiver];
                memcpy(hand->cards + hand->size, passed[giver].cards, sizeof(int) * pass_count);
                hand->size += pass_count;
            }
        }
        /* the first lead: the lead card, or with it set aside the lowest Luck card dealt */
        int first = lead_card, set_aside = 0;
        for (int i = cut; i < total; i++)
            if (order[i] == lead_card) set_aside = 1;
        if (set_aside) {
            first = -1;
            for (int seat = 0; seat < players; seat++)
                for (int i = 0; i < hands[seat].size; i++) {
                    int card = hands[seat].cards[i];
                    if (suit_of[card] == luck && (first < 0 || rank_of[card] < rank_of[first])) first = card;
                }
            if (first < 0) {
                PyErr_SetString(PyExc_ValueError, "no Luck card dealt to lead");
                goto done;
            }
        }
        int leader = -1;
        for (int seat = 0; seat < players && leader < 0; seat++)
            if (pile_find(&hands[seat], first) >= 0) leader = seat;
        for (int seat = 0; seat < players; seat++) {
            for (int s = 0; s <= num_suits; s++) by_suit[seat][s].size = 0;
            for (int i = 0; i < hands[seat].size; i++) {
                int card = hands[seat].cards[i];
                Pile *same = &by_suit[seat][suit_of[card] >= 0 ? suit_of[card] : free_slot];
                same->cards[same->size++] = card;
            }
        }
        /* the tricks */
        int broken = 0;
        for (int number = 0; hands[leader].size; number++) {
            int led = NO_SUIT;
            for (int k = 0; k < players; k++) {
                int seat = (leader + k) % players;
                Pile *hand = &hands[seat];
                int count = 0;
                if (k == 0) {
                    if (number == 0) {
                        options[count++] = first;
                    } else {
                        if (must_break && !broken) {
                            for (int i = 0; i < hand->size; i++)
                                if (suit_of[hand->cards[i]] != shun) options[count++] = hand->cards[i];
                            if (count) {  /* distinct, in hand order */
                                Pile unbroken;
                                memcpy(unbroken.cards, options, sizeof(int) * count);
                                unbroken.size = count;
                                count = 0;
                                add_distinct(&unbroken, options, &count, seen);
                            }
                        }
                        if (!count) add_distinct(hand, options, &count, seen);
                    }
                } else {
                    Pile *same = &by_suit[seat][led >= 0 ? led : free_slot];
                    Pile *choices = same->size ? same : hand;
                    if (number == 0) {  /* no Shun card and not the Opposite Queen on the first trick */
                        Pile clean;
                        clean.size = 0;
                        for (int i = 0; i < choices->size; i++) {
                            int card = choices->cards[i];
                            if (suit_of[card] != shun && card != queen) clean.cards[clean.size++] = card;
                        }
                        add_distinct(clean.size ? &clean : choices, options, &count, seen);
                    } else {
                        add_distinct(choices, options, &count, seen);
                    }
                }
                Py_ssize_t pick = rng_pick(&bots[seat], count);
                if (pick < 0) goto done;
                int card = options[pick];
                actions++, decisions++;
                if (trace_add(trace, card) < 0) goto done;
                int suit = suit_of[card];
                if (k == 0) led = suit;
                if (suit == shun) broken = 1;
                Pile *same = &by_suit[seat][suit >= 0 ? suit : free_slot];
                pile_remove_at(same, pile_find(same, card));
                pile_remove_at(hand, pile_find(hand, card));
                trick[k] = card;
            }
            /* the highest card of the suit led wins; its taker scores the trick */
            int best = 0, best_claim = -2, worth = 0;
            for (int k = 0; k < players; k++) {
                int claim = suit_of[trick[k]] == led ? rank_of[trick[k]] : -1;
                if (claim > best_claim) { best_claim = claim; best = k; }
                worth += points[trick[k]];
            }
            leader = (leader + best) % players;
            hand_points[leader] += worth;
            if (number == 0 && to_first_trick)
                for (int i = cut; i < total; i++) hand_points[leader] += points[order[i]];
        }
        hands_played++;
        int highest = totals[0] + hand_points[0];
        for (int seat = 0; seat < players; seat++) {
            totals[seat] += hand_points[seat];
            if (totals[seat] > highest) highest = totals[seat];
        }
        if (highest >= target) break;
        if (round + 1 >= max_hands) { capped = 1; break; }
        dealer = (dealer + 1) % players;
    }
    PyObject *scores = PyTuple_New(players);
    if (!scores) goto done;
    for (int seat = 0; seat < players; seat++) PyTuple_SET_ITEM(scores, seat, PyLong_FromLong(totals[seat]));
    result = Py_BuildValue("(NOllii)", scores, Py_None, actions, decisions, hands_played, capped);

done:
    close_rngs(&chance, bots);
    return result;

bad_tables:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "tables out of range");
    return NULL;
}

/* -- the module ----------------------------------------------------------------------------- */
static PyMethodDef methods[] = {
    {"wizard", (PyCFunction)(void (*)(void))wizard_playout, METH_VARARGS | METH_KEYWORDS,
     "wizard(players, rounds, restriction, num_suits, physical, suit, rank, wizard, chance_rng, bot_rngs, trace)"
     " -> (totals, bid_sums, actions, decisions, rounds, capped): one random game of Wizard."},
    {"wizard_hearts", (PyCFunction)(void (*)(void))hearts_playout, METH_VARARGS | METH_KEYWORDS,
     "wizard_hearts(players, max_hands, target, pass_count, pass_offsets, luck, lead_card, cauldron_to_first_trick,"
     " shun_must_be_broken, num_suits, physical, suit, rank, queen, points, chance_rng, bot_rngs, trace)"
     " -> (totals, None, actions, decisions, hands, capped): one random game of Wizard Hearts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout", "Compiled random playouts.", -1, methods};

PyMODINIT_FUNC PyInit__playout(void) {
    for (int k = 0; k <= 64; k++) {
        small_ints[k] = PyLong_FromLong(k);
        if (!small_ints[k]) return NULL;
    }
    return PyModule_Create(&module);
}
