//! A complete bot for every pokerbots game: put your strategy in `decide`.
//!
//! poker.rs does the protocol; `decide` sees a `poker::State` (see there) and returns
//! `s.check_or_call()`, `s.fold()` or `s.raise_to(value)`. Started with --mix, the bot
//! answers with `mixed`: a mix of replies, from which the server draws the action.

mod poker;

fn rank(card: &str) -> i64 {
    "23456789TJQKA".find(&card[..1]).expect("a rank") as i64
}

/// 0 weak, 1 medium, 2 strong: a rough read of your cards.
fn strength(s: &poker::State) -> i32 {
    let mine: Vec<i64> = s.cards.iter().map(|c| rank(c)).collect();
    let board: Vec<i64> = s.board.iter().map(|c| rank(c)).collect();
    let (best, low) = (*mine.iter().max().unwrap(), *mine.iter().min().unwrap());
    if mine.iter().any(|r| board.contains(r)) || (mine.len() == 2 && best == low) {
        return 2; // a pair: with the board, or in the hand
    }
    if mine.len() == 1 {
        // Kuhn and Leduc: one card
        return if best >= rank("K") {
            2
        } else if best == rank("Q") {
            1
        } else {
            0
        };
    }
    if board.is_empty() && low >= rank("T") {
        return 2; // two high cards before the flop
    }
    if best >= rank("Q") {
        1
    } else {
        0
    }
}

fn decide(s: &poker::State) -> String {
    let hand = strength(s);
    if hand == 2 && s.can_raise && s.first_action_on_round() {
        return s.raise_to(s.raise_min); // bet or raise the least, once a round
    }
    if s.to_call() == 0 {
        return s.check_or_call(); // check
    }
    if hand == 2 || (hand == 1 && 2 * s.to_call() <= s.pot_total()) {
        return s.check_or_call(); // call
    }
    s.fold()
}

/// A mixed reply: `decide`'s reply four times as often as each other kind of legal reply
/// (check or call, the least bet or raise, fold), so that no action gives your cards away.
fn mixed(s: &poker::State) -> String {
    let mut mix = vec![(s.check_or_call(), 1)];
    if s.can_raise {
        mix.push((s.raise_to(s.raise_min), 1));
    }
    if s.can_fold {
        mix.push((s.fold(), 1));
    }
    let choice = decide(s);
    match mix.iter_mut().find(|(reply, _)| *reply == choice) {
        Some(item) => item.1 = 4,
        None => mix.push((choice, 4)),
    }
    s.mix(&mix)
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--mix") {
        poker::run(&mixed);
    } else {
        poker::run(&decide);
    }
}
