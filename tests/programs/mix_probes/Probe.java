// Prints the Java kit's mix of the items on the command line (reply weight ...), for a
// decision facing a bet: call 10, raise 20 to 100, fold at 5. Built in a kit's folder.

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class Probe {
    public static void main(String[] args) {
        Poker.State s = new Poker.State();
        s.players = 2;
        s.front = 5;
        s.tableBet = s.call = 10;
        s.canFold = s.canRaise = true;
        s.raiseMin = 20;
        s.raiseMax = 100;
        List<Map.Entry<String, Integer>> items = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2)
            items.add(Map.entry(args[i], Integer.parseInt(args[i + 1])));
        System.out.println(s.mix(items));
    }
}
