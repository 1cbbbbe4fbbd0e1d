#!/bin/sh
# call_bot.sh: checks or calls every time, in every game (Kuhn, Leduc, no-limit and limit
# Hold'em) at any table size, in plain POSIX shell.
# It keeps everyone's bankroll (m0, m1, ...) to answer the Money check: a hand's result (d0,
# d1, ...) is the change of each stack in Hold'em (s0, s1, ...: stacks now; t0, t1, ...: the
# starting stacks), and the pot shares won minus the chips put in elsewhere. The game comes
# from POKERBOTS_GAME (or from the Game line of init_round when that is not set): it says which
# line ends each message. Run it with: pokerbots run bots/sh/call_bot.sh bots/random_bot.py

game=${POKERBOTS_GAME:-kuhn}
n=0
carry=no

# The line that ends init_round, play and end_hand in this game (play in Kuhn: its Actions).
set_game() {
    case $1 in
    kuhn) round_end=EndProb: play_end= hand_end=Pots: ;;
    leduc) round_end=Game: play_end=Raise: hand_end=Totals: ;;
    holdem-nl) round_end=StackMode: play_end=Raise: hand_end=Stacks: ;;
    holdem-limit) round_end=BetSizes: play_end=Raise: hand_end=Stacks: ;;
    *) echo "call_bot.sh: unknown game $1" >&2; exit 1 ;;
    esac
}

# Set PREFIX0, PREFIX1, ... from a comma-separated list: each PREFIX LIST
split() {
    prefix=$1; i=0
    old_ifs=$IFS; IFS=,
    for v in $2; do eval "$prefix$i=\$v"; i=$((i + 1)); done
    IFS=$old_ifs
    count=$i
}

# The init_round lines up to the game's last one (Ante lines come before it).
round_lines() {
    word=$1
    while [ "$word" != "$round_end" ]; do
        read -r word value
        case $word in
        Money:) split m "$value"; n=$count ;;
        Stack:)
            split t "$value"
            i=1
            while [ "$count" -eq 1 ] && [ $i -lt $n ]; do eval "t$i=\$t0"; i=$((i + 1)); done ;;
        StackMode:) carry=$value ;;
        esac
    done
    reset_stacks
}

reset_stacks() {
    i=0
    while [ $i -lt $n ]; do eval "s$i=\${t$i:-0}"; i=$((i + 1)); done
}

set_game "$game"
while IFS= read -r line; do
    case $line in
    init_round)
        round_lines init_round
        echo READY ;;
    "Game: "*)
        # POKERBOTS_GAME was not set: the rest of init_round comes after our READY.
        set_game "${line#Game: }"
        round_lines Game: ;;
    init_hand)
        read -r _; read -r _                 # Hand, Cards
        [ "$carry" = carry ] || reset_stacks
        echo READY ;;
    play)
        table=0; i=0
        while [ $i -lt $n ]; do
            read -r _ _ value                # Action: <word> <money in front>
            [ $i -eq 0 ] && front=$value
            [ "$value" -gt $table ] && table=$value
            i=$((i + 1))
        done
        word=
        while [ -n "$play_end" ] && [ "$word" != "$play_end" ]; do   # Board, Pot, Stacks, Raise
            read -r word value
            [ "$word" = Stacks: ] && behind=${value%%,*} && \
                [ $((front + behind)) -lt $table ] && table=$((front + behind))  # all-in
        done
        echo "BET $table" ;;                 # check or call
    end_hand)
        i=0
        while [ $i -lt $n ]; do
            read -r _ _ value
            eval "d$i=\$((-value))"          # Kuhn: the money in front is all one put in
            i=$((i + 1))
        done
        word=; pots=; holdem=no
        while [ "$word" != "$hand_end" ]; do
            read -r word value
            case $word in
            Pots:) pots=$value ;;
            Totals:) split d "$value"; i=0
                while [ $i -lt $n ]; do eval "d$i=\$((-d$i))"; i=$((i + 1)); done ;;
            Stacks:) split a "$value"; holdem=yes ;;
            esac
        done
        if [ $holdem = yes ]; then           # the change of each stack
            i=0
            while [ $i -lt $n ]; do eval "d$i=\$((a$i - s$i)); s$i=\$a$i"; i=$((i + 1)); done
        else                                 # ...or the pots won less the chips put in
            for pot in $pots; do
                amount=${pot%,*}; winner=${pot#*,}
                eval "d$winner=\$((d$winner + amount))"
            done
        fi
        if [ $holdem = yes ] && [ "$carry" = carry ] && [ "$s0" -eq 0 ] && [ "$t0" -gt 0 ]; then
            echo REBUY                       # broke: a rebuy is due
        else
            echo OK
        fi ;;
    EndAction:*)
        i=0
        while [ $i -lt $n ]; do
            [ $i -gt 0 ] && read -r line
            [ "$line" = "EndAction: REBUY" ] && eval "s$i=\$t$i"
            eval "m$i=\$((m$i + d$i))"
            i=$((i + 1))
        done
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
