/* poker.c: the client of poker.h: reads the messages, keeps the round's state. */
#include "poker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_FIELDS 16
#define LINE 4096

/* For each game, the last line of init_round, play and end_hand (NULL: play ends after the
 * Action lines). Ante and BigBlindAnte lines of init_round are read wherever they come. */
static const char *const LAST_LINE[][4] = {
    /* __GAME_LINES__ (one row per game, written by pokerbots new) */
};

typedef struct {
    int count;
    char key[MAX_FIELDS][32];
    char value[MAX_FIELDS][512];
} fields;

static char game[32] = "__DEFAULT_GAME__";
static int players, button, hand, ncards;
static char hand_cards[2][4];
static long bankrolls[POKER_MAX_PLAYERS], deltas[POKER_MAX_PLAYERS];
static int has_stacks, carry;
static long start_stacks[POKER_MAX_PLAYERS], stacks[POKER_MAX_PLAYERS];
static char line[LINE];

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "poker.c: %s%s\n", what, detail);
    exit(1);
}

static const char *last_line(int message) {
    for (size_t i = 0; i < sizeof LAST_LINE / sizeof LAST_LINE[0]; i++)
        if (strcmp(LAST_LINE[i][0], game) == 0) return LAST_LINE[i][message];
    fail("unknown game ", game);
    return NULL;
}

static void read_line(void) {
    if (!fgets(line, sizeof line, stdin)) exit(0); /* the server closed the pipe */
    line[strcspn(line, "\r\n")] = '\0';
}

/* Read "Key: value" lines up to the one named last. */
static void read_fields(fields *f, const char *last) {
    for (;;) {
        read_line();
        char *colon = strstr(line, ": ");
        if (!colon || f->count == MAX_FIELDS) fail("unexpected line: ", line);
        *colon = '\0';
        snprintf(f->key[f->count], sizeof f->key[0], "%.31s", line);
        snprintf(f->value[f->count], sizeof f->value[0], "%.511s", colon + 2);
        f->count++;
        if (strcmp(line, last) == 0) return;
    }
}

static const char *field(const fields *f, const char *key) {
    for (int i = 0; i < f->count; i++)
        if (strcmp(f->key[i], key) == 0) return f->value[i];
    return NULL;
}

/* "3,-1,0" -> {3, -1, 0}; returns how many. */
static int parse_list(const char *text, long *out) {
    int n = 0;
    char *end;
    while (n < POKER_MAX_PLAYERS) {
        out[n++] = strtol(text, &end, 10);
        if (*end != ',') break;
        text = end + 1;
    }
    return n;
}

/* "Ah Kd" -> {"Ah", "Kd"}; "-" -> none. Returns how many. */
static int parse_cards(const char *text, char out[][4], int most) {
    int n = 0;
    if (strcmp(text, "-") == 0) return 0;
    while (n < most && *text) {
        size_t len = strcspn(text, " ");
        snprintf(out[n++], 4, "%.*s", (int)len, text);
        text += len;
        if (*text == ' ') text++;
    }
    return n;
}

/* The players' Action lines: words and money in front. */
static void read_actions(char words[][8], long *fronts) {
    for (int i = 0; i < players; i++) {
        char word[16];
        read_line();
        if (sscanf(line, "Action: %15s %ld", word, &fronts[i]) != 2)
            fail("expected an Action line, not: ", line);
        snprintf(words[i], 8, "%.7s", word);
    }
}

static void send(const char *reply) {
    printf("%s\n", reply);
    fflush(stdout);
}

static void round_fields(const fields *f) {
    const char *value;
    if ((value = field(f, "Game"))) snprintf(game, sizeof game, "%.31s", value);
    if ((value = field(f, "Stack"))) {
        int n = parse_list(value, start_stacks);
        for (int i = n; i < players; i++) start_stacks[i] = start_stacks[0]; /* one for all */
        memcpy(stacks, start_stacks, sizeof stacks);
        has_stacks = 1;
    }
    value = field(f, "StackMode");
    carry = value && strcmp(value, "carry") == 0;
}

static poker_reply play(poker_reply (*decide)(const poker_state *)) {
    poker_state s;
    fields f = {0};
    memset(&s, 0, sizeof s);
    s.game = game;
    s.players = players;
    s.hand = hand;
    s.button = (button + hand) % players;
    s.ncards = ncards;
    memcpy(s.cards, hand_cards, sizeof s.cards);
    memcpy(s.bankrolls, bankrolls, sizeof s.bankrolls);
    read_actions(s.words, s.fronts);
    if (last_line(2)) read_fields(&f, last_line(2));
    const char *board = field(&f, "Board"), *pot = field(&f, "Pot");
    const char *stacks_line = field(&f, "Stacks"), *raise = field(&f, "Raise");
    if (board) s.nboard = parse_cards(board, s.board, 5);
    if (pot) s.pot = strtol(pot, NULL, 10);
    s.front = s.fronts[0];
    for (int i = 0; i < players; i++)
        if (s.fronts[i] > s.table_bet) s.table_bet = s.fronts[i];
    s.call = s.table_bet;
    if (stacks_line) {
        s.has_stacks = 1;
        parse_list(stacks_line, s.stacks);
        if (s.front + s.stacks[0] < s.call) s.call = s.front + s.stacks[0]; /* all-in for less */
    }
    s.can_fold = s.table_bet > s.front;
    if (!raise) { /* Kuhn: one bet of 1, while nobody has bet */
        s.can_raise = s.table_bet == s.front;
        s.raise_min = s.raise_max = s.front + 1;
    } else if (strcmp(raise, "-") != 0) {
        long range[2] = {0, 0};
        parse_list(raise, range);
        s.can_raise = 1;
        s.raise_min = range[0];
        s.raise_max = range[1];
    }
    return decide(&s);
}

/* Work out everyone's result for the hand; answer OK, or REBUY when broke. */
static const char *end_hand(void) {
    char words[POKER_MAX_PLAYERS][8];
    long fronts[POKER_MAX_PLAYERS], spent[POKER_MAX_PLAYERS];
    fields f = {0};
    read_actions(words, fronts);
    read_fields(&f, last_line(3));
    const char *after = field(&f, "Stacks"), *totals = field(&f, "Totals");
    if (after) { /* Hold'em: the change of each stack */
        long now[POKER_MAX_PLAYERS];
        parse_list(after, now);
        for (int i = 0; i < players; i++) deltas[i] = now[i] - stacks[i];
        memcpy(stacks, now, sizeof stacks);
        return carry && now[0] == 0 && start_stacks[0] > 0 ? "REBUY" : "OK";
    }
    /* Kuhn and Leduc: the pots won less the chips put in */
    if (totals) parse_list(totals, spent);
    else memcpy(spent, fronts, sizeof spent);
    for (int i = 0; i < players; i++) deltas[i] = -spent[i];
    for (const char *p = field(&f, "Pots"); p && *p;) {
        char *end;
        long amount = strtol(p, &end, 10);
        long winner = strtol(end + 1, &end, 10);
        if (winner >= 0 && winner < players) deltas[winner] += amount;
        p = *end ? end + 1 : end;
    }
    return "OK";
}

void poker_run(poker_reply (*decide)(const poker_state *)) {
    const char *env = getenv("POKERBOTS_GAME");
    if (env && *env) snprintf(game, sizeof game, "%.31s", env);
    for (;;) {
        read_line();
        if (strcmp(line, "init_round") == 0) {
            fields f = {0};
            read_fields(&f, last_line(1));
            players = parse_list(field(&f, "Money"), bankrolls);
            button = (int)strtol(field(&f, "Button"), NULL, 10);
            round_fields(&f);
            send("READY");
        } else if (strncmp(line, "Game: ", 6) == 0) {
            /* POKERBOTS_GAME was not set: the rest of init_round comes after our READY. */
            fields f = {0};
            snprintf(game, sizeof game, "%.31s", line + 6);
            if (strcmp(last_line(1), "Game") != 0) read_fields(&f, last_line(1));
            round_fields(&f);
        } else if (strcmp(line, "init_hand") == 0) {
            fields f = {0};
            read_fields(&f, "Cards");
            hand = (int)strtol(field(&f, "Hand"), NULL, 10);
            ncards = parse_cards(field(&f, "Cards"), hand_cards, 2);
            if (has_stacks && !carry) memcpy(stacks, start_stacks, sizeof stacks);
            send("READY");
        } else if (strcmp(line, "play") == 0) {
            send(play(decide).text);
        } else if (strcmp(line, "end_hand") == 0) {
            send(end_hand());
        } else if (strncmp(line, "EndAction: ", 11) == 0) {
            char money[LINE] = "Money: ";
            for (int i = 0; i < players; i++) {
                if (i) read_line();
                if (has_stacks && strcmp(line + 11, "REBUY") == 0) stacks[i] = start_stacks[i];
                bankrolls[i] += deltas[i];
                size_t used = strlen(money);
                snprintf(money + used, sizeof money - used, i ? ",%ld" : "%ld", bankrolls[i]);
            }
            send(money);
        } else if (strcmp(line, "end_round") == 0) {
            fields f = {0};
            read_fields(&f, "NumHands");
            send("Thank you dealer, have a nice day!");
            return;
        } else {
            fail("unexpected line: ", line);
        }
    }
}

unsigned long long poker_seed(void) {
    const char *text = getenv("POKERBOTS_SEED");
    if (text && *text) {
        char *end;
        unsigned long long seed = strtoull(text, &end, 10);
        if (!*end) return seed;
    }
    return (unsigned long long)time(NULL) ^ ((unsigned long long)clock() << 32);
}

long poker_to_call(const poker_state *s) { return s->call - s->front; }

long poker_pot_total(const poker_state *s) {
    long total = s->pot;
    for (int i = 0; i < s->players; i++) total += s->fronts[i];
    return total;
}

int poker_first_action_on_round(const poker_state *s) {
    return strcmp(s->words[0], "BLIND") == 0 || strcmp(s->words[0], "PASS") == 0;
}

void poker_legal(const poker_state *s, char *text, size_t size) {
    int used = snprintf(text, size, "BET %ld (%s)", s->call,
                        poker_to_call(s) ? "call" : "check");
    if (s->can_raise && used > 0 && (size_t)used < size)
        used += snprintf(text + used, size - used, ", BET %ld to BET %ld (bet or raise)",
                         s->raise_min, s->raise_max);
    if (s->can_fold && used > 0 && (size_t)used < size)
        snprintf(text + used, size - used, ", FOLD %ld", s->front);
}

static void refuse(const poker_state *s, const char *why) {
    char legal[160];
    poker_legal(s, legal, sizeof legal);
    fprintf(stderr, "poker.c: %s; legal: %s\n", why, legal);
    exit(1);
}

poker_reply poker_check_or_call(const poker_state *s) {
    poker_reply r;
    snprintf(r.text, sizeof r.text, "BET %ld", s->call);
    return r;
}

poker_reply poker_fold(const poker_state *s) {
    poker_reply r;
    if (!s->can_fold) refuse(s, "folding is not allowed when checking is free");
    snprintf(r.text, sizeof r.text, "FOLD %ld", s->front);
    return r;
}

poker_reply poker_raise_to(const poker_state *s, long value) {
    poker_reply r;
    if (!s->can_raise || value < s->raise_min || value > s->raise_max) {
        char why[64];
        snprintf(why, sizeof why, "BET %ld is not a legal raise", value);
        refuse(s, why);
    }
    snprintf(r.text, sizeof r.text, "BET %ld", value);
    return r;
}

int poker_is_legal(const poker_state *s, const char *reply) {
    const char *digits;
    long value = 0;
    int fold = strncmp(reply, "FOLD ", 5) == 0;
    if (!fold && strncmp(reply, "BET ", 4) != 0) return 0;
    digits = reply + (fold ? 5 : 4);
    if (!*digits || (digits[0] == '0' && digits[1]) || strlen(digits) > 18) return 0;
    for (const char *c = digits; *c; c++) {
        if (*c < '0' || *c > '9') return 0;
        value = value * 10 + (*c - '0');
    }
    if (fold) return s->can_fold && value == s->front;
    return value == s->call || (s->can_raise && s->raise_min <= value && value <= s->raise_max);
}

poker_reply poker_mix(const poker_state *s, const poker_item *items, int n) {
    poker_reply r;
    char why[192];
    size_t used = 4;
    if (n < 1 || n > POKER_MIX_MAX_ITEMS) {
        snprintf(why, sizeof why, "a mix has 1 to %d items, not %d", POKER_MIX_MAX_ITEMS, n);
        refuse(s, why);
    }
    for (int i = 0; i < n; i++) {
        const char *reply = items[i].reply.text;
        if (items[i].weight < 1 || items[i].weight > POKER_MIX_MAX_WEIGHT) {
            snprintf(why, sizeof why, "item %d of the mix, '%.40s': its weight must be a whole"
                     " number from 1 to %d, not %ld", i + 1, reply, POKER_MIX_MAX_WEIGHT,
                     items[i].weight);
            refuse(s, why);
        }
        if (!poker_is_legal(s, reply)) {
            snprintf(why, sizeof why, "item %d of the mix, '%.40s', is not a legal reply", i + 1,
                     reply);
            refuse(s, why);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(items[j].reply.text, reply) == 0) {
                snprintf(why, sizeof why, "item %d of the mix, '%.40s', appears twice", i + 1,
                         reply);
                refuse(s, why);
            }
    }
    if (n == 1) return items[0].reply;
    memcpy(r.text, "MIX ", 4);
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(r.text + used, sizeof r.text - used, i ? ",%ld %s" : "%ld %s",
                                 items[i].weight, items[i].reply.text);
    return r;
}
