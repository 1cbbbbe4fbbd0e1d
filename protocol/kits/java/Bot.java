// Bot.java: a complete bot for every pokerbots game: put your strategy in decide().
//
// Poker.java does the protocol; decide() sees a Poker.State (see there) and returns
// s.checkOrCall(), s.fold() or s.raiseTo(value). Started with --mix, the bot answers with
// mixed(): a mix of replies, from which the server draws the action.

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public final class Bot {
    private static int rank(String card) {
        return "23456789TJQKA".indexOf(card.charAt(0));
    }

    /** 0 weak, 1 medium, 2 strong: a rough read of your cards. */
    static int strength(Poker.State s) {
        int best = 0, low = 12;
        for (String card : s.cards) {
            for (String shown : s.board)
                if (rank(card) == rank(shown)) return 2;  // a pair with the board
            best = Math.max(best, rank(card));
            low = Math.min(low, rank(card));
        }
        if (s.cards.size() == 2 && best == low) return 2;  // a pair in the hand
        if (s.cards.size() == 1)  // Kuhn and Leduc: one card
            return best >= rank("K") ? 2 : best == rank("Q") ? 1 : 0;
        if (s.board.isEmpty() && low >= rank("T")) return 2;  // two high cards before the flop
        return best >= rank("Q") ? 1 : 0;
    }

    static String decide(Poker.State s) {
        int hand = strength(s);
        if (hand == 2 && s.canRaise && s.firstActionOnRound())
            return s.raiseTo(s.raiseMin);  // bet or raise the least, once a round
        if (s.toCall() == 0) return s.checkOrCall();  // check
        if (hand == 2 || (hand == 1 && 2 * s.toCall() <= s.potTotal()))
            return s.checkOrCall();  // call
        return s.fold();
    }

    /**
     * A mixed reply: decide()'s reply four times as often as each other kind of legal reply
     * (check or call, the least bet or raise, fold), so that no action gives your cards away.
     */
    static String mixed(Poker.State s) {
        List<Map.Entry<String, Integer>> mix = new ArrayList<>();
        mix.add(Map.entry(s.checkOrCall(), 1));
        if (s.canRaise) mix.add(Map.entry(s.raiseTo(s.raiseMin), 1));
        if (s.canFold) mix.add(Map.entry(s.fold(), 1));
        String choice = decide(s);
        boolean chosen = false;
        for (int i = 0; i < mix.size(); i++)
            if (mix.get(i).getKey().equals(choice)) {
                mix.set(i, Map.entry(choice, 4));
                chosen = true;
            }
        if (!chosen) mix.add(Map.entry(choice, 4));
        return s.mix(mix);
    }

    public static void main(String[] args) throws Exception {
        boolean mixing = args.length > 0 && args[0].equals("--mix");
        Poker.run(mixing ? Bot::mixed : Bot::decide);
    }
}
