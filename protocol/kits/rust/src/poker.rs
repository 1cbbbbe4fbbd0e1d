//! A small client for the pokerbots protocol, with Rust's standard library only.
//!
//! `run` reads the server's messages on stdin, answers every bookkeeping message itself
//! (READY, OK or REBUY, Money, the goodbye line), keeps everyone's bankroll and, in Hold'em,
//! everyone's stack, and calls your `decide` for each play message. `decide` returns one of
//! `s.check_or_call()`, `s.fold()` or `s.raise_to(value)`, or a mix of them, `s.mix(&[...])`,
//! from which the server draws the action. Index 0 of every list is you: the server rotates
//! them. The protocol is PROTOCOL.md.

#![allow(dead_code)] // the library offers more than the sample strategy uses

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

type Fields = HashMap<String, String>;

/// A mix's bounds: each weight a whole number from 1 to MIX_MAX_WEIGHT, at most MIX_MAX_ITEMS.
pub const MIX_MAX_WEIGHT: i64 = 1_000_000;
pub const MIX_MAX_ITEMS: usize = 64;

/// "3,-1,0" -> [3, -1, 0]
pub fn parse_list(text: &str) -> Vec<i64> {
    text.split(',')
        .map(|v| v.trim().parse().expect("a number"))
        .collect()
}

/// "Ah Kd" -> ["Ah", "Kd"]; "-" -> []
pub fn parse_cards(text: &str) -> Vec<String> {
    if text == "-" {
        return Vec::new();
    }
    text.split(' ').map(String::from).collect()
}

/// A play message: what you need to decide.
#[derive(Debug, Default)]
pub struct State {
    pub game: String, // the game, as --game names it
    pub players: usize,
    pub hand: u64,          // hand number, from 0
    pub button: usize,      // seats from you to the button, clockwise
    pub cards: Vec<String>, // ["Q"] or ["Ah", "Kd"]
    pub board: Vec<String>,
    pub pot: i64,           // chips from earlier betting rounds
    pub words: Vec<String>, // each player's latest action: BLIND, PASS, BET, FOLD
    pub fronts: Vec<i64>,   // money in front on this betting round
    pub stacks: Vec<i64>,   // Hold'em: chips behind (empty in Kuhn and Leduc)
    pub bankrolls: Vec<i64>,
    pub front: i64,
    pub table_bet: i64,
    // The legal replies, as money-in-front values.
    pub call: i64,       // BET call checks or calls
    pub can_fold: bool,  // FOLD front: only when facing a bet
    pub can_raise: bool, // BET raise_min ..= raise_max bets or raises
    pub raise_min: i64,
    pub raise_max: i64,
}

impl State {
    /// Chips you add to check (0) or call.
    pub fn to_call(&self) -> i64 {
        self.call - self.front
    }
    /// Everything in the middle: the pot and all money in front.
    pub fn pot_total(&self) -> i64 {
        self.pot + self.fronts.iter().sum::<i64>()
    }
    /// True until you act on this betting round.
    pub fn first_action_on_round(&self) -> bool {
        self.words[0] == "BLIND" || self.words[0] == "PASS"
    }
    /// The legal replies, as the server would list them.
    pub fn legal(&self) -> String {
        let mut text = format!(
            "BET {} ({})",
            self.call,
            if self.to_call() > 0 { "call" } else { "check" }
        );
        if self.can_raise {
            text += &format!(
                ", BET {} to BET {} (bet or raise)",
                self.raise_min, self.raise_max
            );
        }
        if self.can_fold {
            text += &format!(", FOLD {}", self.front);
        }
        text
    }
    pub fn check_or_call(&self) -> String {
        format!("BET {}", self.call)
    }
    /// Panics, saying why, when checking is free.
    pub fn fold(&self) -> String {
        if !self.can_fold {
            panic!(
                "folding is not allowed when checking is free; legal: {}",
                self.legal()
            );
        }
        format!("FOLD {}", self.front)
    }
    /// Panics, saying why, outside the legal range.
    pub fn raise_to(&self, value: i64) -> String {
        if !self.can_raise || value < self.raise_min || value > self.raise_max {
            panic!(
                "BET {} is not a legal raise; legal: {}",
                value,
                self.legal()
            );
        }
        format!("BET {}", value)
    }
    /// Whether the server takes `reply` (such as "BET 10") as a single reply here.
    pub fn is_legal(&self, reply: &str) -> bool {
        let (fold, digits) = match reply.split_once(' ') {
            Some(("FOLD", digits)) => (true, digits),
            Some(("BET", digits)) => (false, digits),
            _ => return false,
        };
        let canonical = !digits.is_empty()
            && digits.len() <= 18
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        if !canonical {
            return false;
        }
        let value: i64 = digits.parse().expect("a number");
        if fold {
            return self.can_fold && value == self.front;
        }
        value == self.call || (self.can_raise && self.raise_min <= value && value <= self.raise_max)
    }
    /// A mixed reply: the server plays each reply with probability weight / total. Each reply
    /// one the functions above return, given once, each weight from 1 to MIX_MAX_WEIGHT, 1 to
    /// MIX_MAX_ITEMS items; one item is that reply. Panics, naming the item, otherwise:
    /// `s.mix(&[(s.check_or_call(), 3), (s.raise_to(2), 1)])` is "MIX 3 BET 1,1 BET 2" in
    /// Kuhn (check three times in four).
    pub fn mix(&self, items: &[(String, i64)]) -> String {
        if items.is_empty() || items.len() > MIX_MAX_ITEMS {
            panic!(
                "a mix has 1 to {} items, not {}; legal: {}",
                MIX_MAX_ITEMS,
                items.len(),
                self.legal()
            );
        }
        let mut parts = Vec::new();
        for (i, (reply, weight)) in items.iter().enumerate() {
            let item = format!("item {} of the mix, '{}'", i + 1, reply);
            if *weight < 1 || *weight > MIX_MAX_WEIGHT {
                panic!(
                    "{}: its weight must be a whole number from 1 to {}, not {}; legal: {}",
                    item,
                    MIX_MAX_WEIGHT,
                    weight,
                    self.legal()
                );
            }
            if !self.is_legal(reply) {
                panic!("{}, is not a legal reply; legal: {}", item, self.legal());
            }
            if items[..i].iter().any(|(other, _)| other == reply) {
                panic!("{}, appears twice; legal: {}", item, self.legal());
            }
            parts.push(format!("{} {}", weight, reply));
        }
        if items.len() == 1 {
            return items[0].0.clone();
        }
        format!("MIX {}", parts.join(","))
    }
}

/// The last line of init_round, play and end_hand ("": play ends after the Action lines).
/// Ante and BigBlindAnte lines of init_round are read wherever they come.
fn last_line(game: &str, message: usize) -> &'static str {
    let lines = match game {
        // __GAME_LINES__ (one row per game, written by pokerbots new)
        _ => panic!("unknown game {}", game),
    };
    lines[message]
}

/// Reads the server's messages line by line and keeps the round's state.
struct Client<R: BufRead, W: Write> {
    input: R,
    output: W,
    game: String,
    players: usize,
    button: usize,
    hand: u64,
    cards: Vec<String>,
    bankrolls: Vec<i64>,
    deltas: Vec<i64>,
    start_stacks: Vec<i64>, // Hold'em: each seat's starting stack
    stacks: Vec<i64>,       // Hold'em: each seat's stack at the start of this hand
    carry: bool,            // stacks carry from hand to hand
}

impl<R: BufRead, W: Write> Client<R, W> {
    fn read_line(&mut self) -> String {
        let mut line = String::new();
        if self.input.read_line(&mut line).expect("stdin") == 0 {
            std::process::exit(0); // the server closed the pipe
        }
        line.trim_end_matches(['\n', '\r']).to_string()
    }

    fn send(&mut self, reply: &str) {
        writeln!(self.output, "{}", reply).expect("stdout");
        self.output.flush().expect("stdout");
    }

    /// Read "Key: value" lines up to the one named `last`.
    fn fields(&mut self, last: &str) -> Fields {
        let mut fields = Fields::new();
        loop {
            let line = self.read_line();
            let (key, value) = line
                .split_once(": ")
                .unwrap_or_else(|| panic!("unexpected line: {}", line));
            fields.insert(key.to_string(), value.to_string());
            if key == last {
                return fields;
            }
        }
    }

    fn actions(&mut self) -> (Vec<String>, Vec<i64>) {
        let (mut words, mut fronts) = (Vec::new(), Vec::new());
        for _ in 0..self.players {
            let line = self.read_line();
            let parts: Vec<&str> = line.split(' ').collect();
            words.push(parts[1].to_string());
            fronts.push(parts[2].parse().expect("a number"));
        }
        (words, fronts)
    }

    fn round_fields(&mut self, f: &Fields) {
        if let Some(stack) = f.get("Stack") {
            let mut stacks = parse_list(stack);
            stacks.resize(self.players, stacks[0]); // one value: the same for all
            self.start_stacks = stacks.clone();
            self.stacks = stacks;
        }
        self.carry = f.get("StackMode").map(String::as_str) == Some("carry");
    }

    fn play(&mut self) -> State {
        let (words, fronts) = self.actions();
        let last = last_line(&self.game, 1);
        let f = if last.is_empty() {
            Fields::new()
        } else {
            self.fields(last)
        };
        let mut s = State {
            game: self.game.clone(),
            players: self.players,
            hand: self.hand,
            button: (self.button + self.hand as usize) % self.players,
            cards: self.cards.clone(),
            board: f.get("Board").map(|b| parse_cards(b)).unwrap_or_default(),
            pot: f
                .get("Pot")
                .map(|p| p.parse().expect("a number"))
                .unwrap_or(0),
            front: fronts[0],
            table_bet: *fronts.iter().max().unwrap(),
            words,
            fronts,
            stacks: f.get("Stacks").map(|v| parse_list(v)).unwrap_or_default(),
            bankrolls: self.bankrolls.clone(),
            ..State::default()
        };
        s.call = s.table_bet;
        if !s.stacks.is_empty() {
            s.call = s.call.min(s.front + s.stacks[0]); // all-in for less
        }
        s.can_fold = s.table_bet > s.front;
        match f.get("Raise").map(String::as_str) {
            None => {
                // Kuhn: one bet of 1, while nobody has bet
                s.can_raise = s.table_bet == s.front;
                s.raise_min = s.front + 1;
                s.raise_max = s.front + 1;
            }
            Some("-") => {}
            Some(range) => {
                let range = parse_list(range);
                s.can_raise = true;
                s.raise_min = range[0];
                s.raise_max = range[1];
            }
        }
        s
    }

    /// Work out everyone's result for the hand; answer OK, or REBUY when broke.
    fn end_hand(&mut self) -> &'static str {
        let (_, fronts) = self.actions();
        let f = self.fields(last_line(&self.game, 2));
        if let Some(after) = f.get("Stacks") {
            // Hold'em: the change of each stack
            let after = parse_list(after);
            self.deltas = after.iter().zip(&self.stacks).map(|(a, b)| a - b).collect();
            self.stacks = after;
            let broke = self.carry && self.stacks[0] == 0 && self.start_stacks[0] > 0;
            return if broke { "REBUY" } else { "OK" };
        }
        // Kuhn and Leduc: the pots won less the chips put in
        let spent = f.get("Totals").map(|t| parse_list(t)).unwrap_or(fronts);
        self.deltas = spent.iter().map(|c| -c).collect();
        for pot in f["Pots"].split(' ') {
            let share = parse_list(pot);
            self.deltas[share[1] as usize] += share[0];
        }
        "OK"
    }

    fn run(&mut self, decide: &dyn Fn(&State) -> String) {
        loop {
            let line = self.read_line();
            if line == "init_round" {
                let f = self.fields(last_line(&self.game, 0));
                self.bankrolls = parse_list(&f["Money"]);
                self.players = self.bankrolls.len();
                self.button = f["Button"].parse().expect("a number");
                self.round_fields(&f);
                self.send("READY");
            } else if let Some(game) = line.strip_prefix("Game: ") {
                // POKERBOTS_GAME was not set: the rest of init_round comes after our READY.
                self.game = game.to_string();
                let last = last_line(&self.game, 0);
                let f = if last == "Game" {
                    Fields::new()
                } else {
                    self.fields(last)
                };
                self.round_fields(&f);
            } else if line == "init_hand" {
                let f = self.fields("Cards");
                self.hand = f["Hand"].parse().expect("a number");
                self.cards = parse_cards(&f["Cards"]);
                if !self.carry {
                    self.stacks = self.start_stacks.clone();
                }
                self.send("READY");
            } else if line == "play" {
                let state = self.play();
                let reply = decide(&state);
                self.send(&reply);
            } else if line == "end_hand" {
                let reply = self.end_hand();
                self.send(reply);
            } else if line.starts_with("EndAction: ") {
                let mut answer = line;
                for i in 0..self.players {
                    if i > 0 {
                        answer = self.read_line();
                    }
                    if answer == "EndAction: REBUY" && !self.stacks.is_empty() {
                        self.stacks[i] = self.start_stacks[i];
                    }
                    self.bankrolls[i] += self.deltas[i];
                }
                let money: Vec<String> = self.bankrolls.iter().map(|m| m.to_string()).collect();
                self.send(&format!("Money: {}", money.join(",")));
            } else if line == "end_round" {
                self.fields("NumHands");
                self.send("Thank you dealer, have a nice day!");
                return;
            } else {
                panic!("unexpected line: {}", line);
            }
        }
    }
}

/// A seed for your random numbers: the one the server gives this seat (POKERBOTS_SEED), so
/// that a match replayed with the same seed plays the same again; outside a match, one from
/// the clock. `Rng::new(poker::seed())` draws from it.
pub fn seed() -> u64 {
    match std::env::var("POKERBOTS_SEED").ok().and_then(|t| t.parse::<u64>().ok()) {
        Some(seed) => seed,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
    }
}

/// A small random number generator (SplitMix64), since Rust's standard library has none.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from 0 to 1, 1 left out.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Play one round on stdin and stdout.
pub fn run(decide: &dyn Fn(&State) -> String) {
    let game = std::env::var("POKERBOTS_GAME")
        .ok()
        .filter(|g| !g.is_empty());
    let mut client = Client {
        input: io::stdin().lock(),
        output: io::stdout().lock(),
        game: game.unwrap_or_else(|| "__DEFAULT_GAME__".to_string()),
        players: 0,
        button: 0,
        hand: 0,
        cards: Vec::new(),
        bankrolls: Vec::new(),
        deltas: Vec::new(),
        start_stacks: Vec::new(),
        stacks: Vec::new(),
        carry: false,
    };
    client.run(decide);
}
