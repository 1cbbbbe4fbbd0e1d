#!/bin/sh
# call_bot.sh: checks or calls every time in N-player Kuhn poker, in plain POSIX shell.
# It keeps everyone's bankroll (m0, m1, ...: pot shares won minus the money put in) to answer
# the Money check. Run it with: pokerbots run bots/sh/call_bot.sh bots/random_bot.py
if [ -n "$POKERBOTS_GAME" ] && [ "$POKERBOTS_GAME" != kuhn ]; then
    echo "call_bot.sh plays Kuhn poker only, not $POKERBOTS_GAME" >&2
    exit 1
fi
n=0
while IFS= read -r line; do
    case $line in
    init_round)
        read -r _ list                       # Money: m0,m1,...
        n=0
        old_ifs=$IFS; IFS=,
        for m in $list; do eval "m$n=$m"; n=$((n + 1)); done
        IFS=$old_ifs
        read -r _; read -r _; read -r _      # Blinds, Button, EndProb
        echo READY ;;
    init_hand)
        read -r _; read -r _                 # Hand, Cards
        echo READY ;;
    play)
        table=0; i=0
        while [ $i -lt $n ]; do
            read -r _ _ value                # Action: <word> <money in front>
            [ "$value" -gt $table ] && table=$value
            i=$((i + 1))
        done
        echo "BET $table" ;;                 # check or call
    end_hand)
        i=0
        while [ $i -lt $n ]; do
            read -r _ _ value
            eval "m$i=\$((m$i - value))"     # everyone loses what they put in...
            i=$((i + 1))
        done
        read -r _                            # Showdown
        read -r _ pots                       # Pots: amount,winner ...
        for pot in $pots; do
            amount=${pot%,*}; winner=${pot#*,}
            eval "m$winner=\$((m$winner + amount))"   # ...and the winners get the pots
        done
        echo OK ;;
    EndAction:*)
        i=1
        while [ $i -lt $n ]; do read -r _; i=$((i + 1)); done
        money="Money: $m0"; i=1
        while [ $i -lt $n ]; do eval "money=\"\$money,\$m$i\""; i=$((i + 1)); done
        echo "$money" ;;
    end_round)
        read -r _; read -r _                 # Bankrolls, NumHands
        echo "Thank you dealer, have a nice day!"
        exit 0 ;;
    *)
        echo "call_bot.sh: unexpected line: $line" >&2
        exit 1 ;;
    esac
done
