// Poker.java: a small client for the pokerbots protocol, with Java's standard library only.
//
// Poker.run() reads the server's messages on stdin, answers every bookkeeping message itself
// (READY, OK or REBUY, Money, the goodbye line), keeps everyone's bankroll and, in Hold'em,
// everyone's stack, and calls your decide() for each play message. decide() returns one of
// s.checkOrCall(), s.fold() or s.raiseTo(value), or a mix of them, s.mix(...), from which the
// server draws the action. Index 0 of every list is you: the server rotates them. The
// protocol is PROTOCOL.md.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

public final class Poker {

    /** A mix's bounds: each weight a whole number from 1 to MIX_MAX_WEIGHT, at most
     *  MIX_MAX_ITEMS items. */
    public static final int MIX_MAX_WEIGHT = 1000000;
    public static final int MIX_MAX_ITEMS = 64;

    /** A play message: what you need to decide. */
    public static final class State {
        public String game;              // the game, as --game names it
        public int players;
        public int hand;                 // hand number, from 0
        public int button;               // seats from you to the button, clockwise
        public List<String> cards;       // [Q] or [Ah, Kd]
        public List<String> board;
        public long pot;                 // chips from earlier betting rounds
        public List<String> words = new ArrayList<>();  // latest actions: BLIND, PASS, BET, FOLD
        public List<Long> fronts = new ArrayList<>();   // money in front on this betting round
        public long[] stacks;            // Hold'em: chips behind (null in Kuhn and Leduc)
        public long[] bankrolls;
        public long front, tableBet;
        // The legal replies, as money-in-front values.
        public long call;                // BET call checks or calls
        public boolean canFold;          // FOLD front: only when facing a bet
        public boolean canRaise;         // BET raiseMin .. BET raiseMax bets or raises
        public long raiseMin, raiseMax;

        /** Chips you add to check (0) or call. */
        public long toCall() { return call - front; }

        /** Everything in the middle: the pot and all money in front. */
        public long potTotal() {
            long total = pot;
            for (long f : fronts) total += f;
            return total;
        }

        /** True until you act on this betting round. */
        public boolean firstActionOnRound() {
            return words.get(0).equals("BLIND") || words.get(0).equals("PASS");
        }

        /** The legal replies, as the server would list them. */
        public String legal() {
            String text = "BET " + call + (toCall() > 0 ? " (call)" : " (check)");
            if (canRaise) text += ", BET " + raiseMin + " to BET " + raiseMax + " (bet or raise)";
            if (canFold) text += ", FOLD " + front;
            return text;
        }

        public String checkOrCall() { return "BET " + call; }

        public String fold() {
            if (!canFold)
                throw new IllegalStateException(
                    "folding is not allowed when checking is free; legal: " + legal());
            return "FOLD " + front;
        }

        public String raiseTo(long value) {
            if (!canRaise || value < raiseMin || value > raiseMax)
                throw new IllegalStateException(
                    "BET " + value + " is not a legal raise; legal: " + legal());
            return "BET " + value;
        }

        /** Whether the server takes reply (such as "BET 10") as a single reply here. */
        public boolean isLegal(String reply) {
            boolean isFold = reply.startsWith("FOLD ");
            if (!isFold && !reply.startsWith("BET ")) return false;
            String digits = reply.substring(isFold ? 5 : 4);
            if (!digits.matches("0|[1-9][0-9]{0,17}")) return false;
            long value = Long.parseLong(digits);
            if (isFold) return canFold && value == front;
            return value == call || (canRaise && raiseMin <= value && value <= raiseMax);
        }

        /**
         * A mixed reply: the server plays each reply with probability weight / total. Each
         * reply one the methods above return, given once, each weight from 1 to
         * MIX_MAX_WEIGHT, 1 to MIX_MAX_ITEMS items; one item is that reply. Throws, naming
         * the item, otherwise: s.mix(Map.entry(s.checkOrCall(), 3), Map.entry(s.raiseTo(2),
         * 1)) is "MIX 3 BET 1,1 BET 2" in Kuhn (check three times in four).
         */
        @SafeVarargs
        public final String mix(Map.Entry<String, Integer>... items) {
            return mix(Arrays.asList(items));
        }

        /** The same, the items in a list. */
        public String mix(List<Map.Entry<String, Integer>> items) {
            if (items.isEmpty() || items.size() > MIX_MAX_ITEMS)
                throw new IllegalStateException("a mix has 1 to " + MIX_MAX_ITEMS + " items, not "
                    + items.size() + "; legal: " + legal());
            StringBuilder line = new StringBuilder("MIX ");
            for (int i = 0; i < items.size(); i++) {
                String reply = items.get(i).getKey();
                int weight = items.get(i).getValue();
                String item = "item " + (i + 1) + " of the mix, '" + reply + "'";
                if (weight < 1 || weight > MIX_MAX_WEIGHT)
                    throw new IllegalStateException(item + ": its weight must be a whole number"
                        + " from 1 to " + MIX_MAX_WEIGHT + ", not " + weight + "; legal: " + legal());
                if (!isLegal(reply))
                    throw new IllegalStateException(item + ", is not a legal reply; legal: "
                        + legal());
                for (int j = 0; j < i; j++)
                    if (items.get(j).getKey().equals(reply))
                        throw new IllegalStateException(item + ", appears twice; legal: "
                            + legal());
                line.append(i > 0 ? "," : "").append(weight).append(' ').append(reply);
            }
            return items.size() == 1 ? items.get(0).getKey() : line.toString();
        }
    }

    // The last line of init_round, play and end_hand ("": play ends after the Action lines).
    // Ante and BigBlindAnte lines of init_round are read wherever they come.
    private static final Map<String, String[]> LAST_LINE = Map.ofEntries(
        // __GAME_LINES__ (one row per game, written by pokerbots new)
    );

    private final Function<State, String> decide;
    private final BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    private final PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    private String game = "__DEFAULT_GAME__";
    private int players, button, hand;
    private List<String> cards = List.of();
    private long[] bankrolls, deltas;
    private long[] startStacks, stacks;  // Hold'em: starting stacks, stacks at the hand's start
    private boolean carry;               // stacks carry from hand to hand

    private Poker(Function<State, String> decide) {
        this.decide = decide;
        String env = System.getenv("POKERBOTS_GAME");
        if (env != null && !env.isEmpty()) game = env;
    }

    /** Play one round on stdin and stdout. */
    public static void run(Function<State, String> decide) throws IOException {
        new Poker(decide).loop();
    }

    /**
     * A seed for your random numbers: the one the server gives this seat (POKERBOTS_SEED), so
     * that a match replayed with the same seed plays the same again; outside a match, one from
     * the clock. For instance new java.util.Random(Poker.seed()).
     */
    public static long seed() {
        String text = System.getenv("POKERBOTS_SEED");
        if (text != null && !text.isEmpty()) {
            try {
                return Long.parseUnsignedLong(text);
            } catch (NumberFormatException e) {
                // not a seed of the server's: fall back on the clock
            }
        }
        return System.nanoTime();
    }

    /** "3,-1,0" -> {3, -1, 0} */
    public static long[] parseList(String text) {
        return Arrays.stream(text.split(",")).mapToLong(Long::parseLong).toArray();
    }

    /** "Ah Kd" -> [Ah, Kd]; "-" -> [] */
    public static List<String> parseCards(String text) {
        return text.equals("-") ? List.of() : List.of(text.split(" "));
    }

    private String lastLine(int message) {
        String[] lines = LAST_LINE.get(game);
        if (lines == null) throw new IllegalStateException("unknown game " + game);
        return lines[message];
    }

    private String readLine() throws IOException {
        String line = in.readLine();
        if (line == null) System.exit(0);  // the server closed the pipe
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private void send(String reply) {
        out.print(reply + "\n");
        out.flush();
    }

    /** Read "Key: value" lines up to the one named last. */
    private Map<String, String> fields(String last) throws IOException {
        Map<String, String> fields = new HashMap<>();
        for (;;) {
            String line = readLine();
            int colon = line.indexOf(": ");
            if (colon < 0) throw new IllegalStateException("unexpected line: " + line);
            String key = line.substring(0, colon);
            fields.put(key, line.substring(colon + 2));
            if (key.equals(last)) return fields;
        }
    }

    private void actions(List<String> words, List<Long> fronts) throws IOException {
        for (int i = 0; i < players; i++) {
            String[] parts = readLine().split(" ");
            words.add(parts[1]);
            fronts.add(Long.parseLong(parts[2]));
        }
    }

    private void roundFields(Map<String, String> f) {
        if (f.containsKey("Stack")) {
            long[] given = parseList(f.get("Stack"));
            startStacks = new long[players];
            for (int i = 0; i < players; i++) startStacks[i] = given.length == 1 ? given[0] : given[i];
            stacks = startStacks.clone();
        }
        carry = "carry".equals(f.get("StackMode"));
    }

    private State play() throws IOException {
        State s = new State();
        s.game = game;
        s.players = players;
        s.hand = hand;
        s.button = (button + hand) % players;
        s.cards = cards;
        s.bankrolls = bankrolls.clone();
        actions(s.words, s.fronts);
        Map<String, String> f = lastLine(1).isEmpty() ? Map.of() : fields(lastLine(1));
        s.board = parseCards(f.getOrDefault("Board", "-"));
        s.pot = Long.parseLong(f.getOrDefault("Pot", "0"));
        s.front = s.fronts.get(0);
        for (long value : s.fronts) s.tableBet = Math.max(s.tableBet, value);
        s.call = s.tableBet;
        if (f.containsKey("Stacks")) {
            s.stacks = parseList(f.get("Stacks"));
            s.call = Math.min(s.call, s.front + s.stacks[0]);  // all-in for less
        }
        s.canFold = s.tableBet > s.front;
        String raise = f.get("Raise");
        if (raise == null) {  // Kuhn: one bet of 1, while nobody has bet
            s.canRaise = s.tableBet == s.front;
            s.raiseMin = s.raiseMax = s.front + 1;
        } else if (!raise.equals("-")) {
            long[] range = parseList(raise);
            s.canRaise = true;
            s.raiseMin = range[0];
            s.raiseMax = range[1];
        }
        return s;
    }

    /** Work out everyone's result for the hand; answer OK, or REBUY when broke. */
    private String endHand() throws IOException {
        List<String> words = new ArrayList<>();
        List<Long> fronts = new ArrayList<>();
        actions(words, fronts);
        Map<String, String> f = fields(lastLine(2));
        deltas = new long[players];
        if (f.containsKey("Stacks")) {  // Hold'em: the change of each stack
            long[] after = parseList(f.get("Stacks"));
            for (int i = 0; i < players; i++) deltas[i] = after[i] - stacks[i];
            stacks = after;
            return carry && after[0] == 0 && startStacks[0] > 0 ? "REBUY" : "OK";
        }
        // Kuhn and Leduc: the pots won less the chips put in
        long[] totals = f.containsKey("Totals") ? parseList(f.get("Totals")) : null;
        for (int i = 0; i < players; i++) deltas[i] = -(totals != null ? totals[i] : fronts.get(i));
        for (String pot : f.get("Pots").split(" ")) {
            long[] share = parseList(pot);
            deltas[(int) share[1]] += share[0];
        }
        return "OK";
    }

    private void loop() throws IOException {
        for (;;) {
            String line = readLine();
            if (line.equals("init_round")) {
                Map<String, String> f = fields(lastLine(0));
                bankrolls = parseList(f.get("Money"));
                players = bankrolls.length;
                button = Integer.parseInt(f.get("Button"));
                roundFields(f);
                send("READY");
            } else if (line.startsWith("Game: ")) {
                // POKERBOTS_GAME was not set: the rest of init_round comes after our READY.
                game = line.substring(6);
                roundFields(lastLine(0).equals("Game") ? Map.of() : fields(lastLine(0)));
            } else if (line.equals("init_hand")) {
                Map<String, String> f = fields("Cards");
                hand = Integer.parseInt(f.get("Hand"));
                cards = parseCards(f.get("Cards"));
                if (startStacks != null && !carry) stacks = startStacks.clone();
                send("READY");
            } else if (line.equals("play")) {
                send(decide.apply(play()));
            } else if (line.equals("end_hand")) {
                send(endHand());
            } else if (line.startsWith("EndAction: ")) {
                StringBuilder money = new StringBuilder("Money: ");
                for (int i = 0; i < players; i++) {
                    if (i > 0) line = readLine();
                    if (stacks != null && line.equals("EndAction: REBUY")) stacks[i] = startStacks[i];
                    bankrolls[i] += deltas[i];
                    money.append(i > 0 ? "," : "").append(bankrolls[i]);
                }
                send(money.toString());
            } else if (line.equals("end_round")) {
                fields("NumHands");
                send("Thank you dealer, have a nice day!");
                return;
            } else {
                throw new IllegalStateException("unexpected line: " + line);
            }
        }
    }
}
