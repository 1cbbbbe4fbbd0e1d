// poker.hpp: a small client for the pokerbots protocol, in C++17 with the standard library only.
//
// poker::run() reads the server's messages on stdin, answers every bookkeeping message itself
// (READY, OK or REBUY, Money, the goodbye line), keeps everyone's bankroll and, in Hold'em,
// everyone's stack, and calls your decide() for each play message. decide() returns one of
// s.check_or_call(), s.fold() or s.raise_to(value), or a mix of them, s.mix({...}), from which
// the server draws the action. Index 0 of every list is you: the server rotates them. The
// protocol is PROTOCOL.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace poker {

using Fields = std::map<std::string, std::string>;

// A mix's bounds: each weight a whole number from 1 to MIX_MAX_WEIGHT, at most MIX_MAX_ITEMS.
constexpr long MIX_MAX_WEIGHT = 1000000;
constexpr std::size_t MIX_MAX_ITEMS = 64;

// "3,-1,0" -> {3, -1, 0}
inline std::vector<long> parse_list(const std::string& text) {
    std::vector<long> values;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) values.push_back(std::stol(item));
    return values;
}

// "Ah Kd" -> {"Ah", "Kd"}; "-" -> {}
inline std::vector<std::string> parse_cards(const std::string& text) {
    std::vector<std::string> cards;
    if (text == "-") return cards;
    std::istringstream in(text);
    for (std::string card; in >> card;) cards.push_back(card);
    return cards;
}

// A play message: what you need to decide.
struct State {
    std::string game;                 // the game, as --game names it
    int players = 0;
    int hand = 0;                     // hand number, from 0
    int button = 0;                   // seats from you to the button, clockwise
    std::vector<std::string> cards;   // {"Q"} or {"Ah", "Kd"}
    std::vector<std::string> board;
    long pot = 0;                     // chips from earlier betting rounds
    std::vector<std::string> words;   // each player's latest action: BLIND, PASS, BET, FOLD
    std::vector<long> fronts;         // money in front on this betting round
    std::vector<long> stacks;         // Hold'em: chips behind (empty in Kuhn and Leduc)
    std::vector<long> bankrolls;
    long front = 0, table_bet = 0;
    // The legal replies, as money-in-front values.
    long call = 0;                    // BET call checks or calls
    bool can_fold = false;            // FOLD front: only when facing a bet
    bool can_raise = false;           // BET raise_min .. BET raise_max bets or raises
    long raise_min = 0, raise_max = 0;

    long to_call() const { return call - front; }  // 0 when checking is free
    long pot_total() const { return std::accumulate(fronts.begin(), fronts.end(), pot); }
    bool first_action_on_round() const { return words[0] == "BLIND" || words[0] == "PASS"; }

    std::string legal() const {
        std::string text = "BET " + std::to_string(call) + (to_call() ? " (call)" : " (check)");
        if (can_raise)
            text += ", BET " + std::to_string(raise_min) + " to BET " + std::to_string(raise_max) +
                    " (bet or raise)";
        if (can_fold) text += ", FOLD " + std::to_string(front);
        return text;
    }
    std::string check_or_call() const { return "BET " + std::to_string(call); }
    std::string fold() const {
        if (!can_fold)
            throw std::logic_error("folding is not allowed when checking is free; legal: " +
                                   legal());
        return "FOLD " + std::to_string(front);
    }
    std::string raise_to(long value) const {
        if (!can_raise || value < raise_min || value > raise_max)
            throw std::logic_error("BET " + std::to_string(value) +
                                   " is not a legal raise; legal: " + legal());
        return "BET " + std::to_string(value);
    }
    // Whether the server takes reply (such as "BET 10") as a single reply here.
    bool is_legal(const std::string& reply) const {
        bool is_fold = reply.rfind("FOLD ", 0) == 0;
        if (!is_fold && reply.rfind("BET ", 0) != 0) return false;
        std::string digits = reply.substr(is_fold ? 5 : 4);
        if (digits.empty() || digits.size() > 18 || (digits[0] == '0' && digits.size() > 1) ||
            digits.find_first_not_of("0123456789") != std::string::npos)
            return false;
        long value = std::stol(digits);
        if (is_fold) return can_fold && value == front;
        return value == call || (can_raise && raise_min <= value && value <= raise_max);
    }
    // A mixed reply: the server plays each reply with probability weight / total. Each reply
    // one the functions above return, given once, each weight from 1 to MIX_MAX_WEIGHT, 1 to
    // MIX_MAX_ITEMS items; one item is that reply. Throws, naming the item, otherwise:
    // s.mix({{s.check_or_call(), 3}, {s.raise_to(2), 1}}) is "MIX 3 BET 1,1 BET 2" in Kuhn
    // (check three times in four).
    std::string mix(const std::vector<std::pair<std::string, long>>& items) const {
        if (items.empty() || items.size() > MIX_MAX_ITEMS)
            throw std::logic_error("a mix has 1 to " + std::to_string(MIX_MAX_ITEMS) +
                                   " items, not " + std::to_string(items.size()) +
                                   "; legal: " + legal());
        std::string line = "MIX ";
        for (std::size_t i = 0; i < items.size(); i++) {
            const auto& [reply, weight] = items[i];
            std::string item = "item " + std::to_string(i + 1) + " of the mix, '" + reply + "'";
            if (weight < 1 || weight > MIX_MAX_WEIGHT)
                throw std::logic_error(item + ": its weight must be a whole number from 1 to " +
                                       std::to_string(MIX_MAX_WEIGHT) + ", not " +
                                       std::to_string(weight) + "; legal: " + legal());
            if (!is_legal(reply))
                throw std::logic_error(item + ", is not a legal reply; legal: " + legal());
            for (std::size_t j = 0; j < i; j++)
                if (items[j].first == reply)
                    throw std::logic_error(item + ", appears twice; legal: " + legal());
            line += (i ? "," : "") + std::to_string(weight) + " " + reply;
        }
        return items.size() == 1 ? items[0].first : line;
    }
};

// Reads the server's messages line by line and keeps the round's state.
class Client {
  public:
    explicit Client(std::function<std::string(const State&)> decide) : decide_(std::move(decide)) {
        const char* env = std::getenv("POKERBOTS_GAME");
        if (env && *env) game_ = env;
    }

    void run() {
        for (;;) {
            std::string line = read_line();
            if (line == "init_round") {
                Fields f = fields(last_line(0));
                bankrolls_ = parse_list(f["Money"]);
                players_ = static_cast<int>(bankrolls_.size());
                button_ = std::stoi(f["Button"]);
                round_fields(f);
                send("READY");
            } else if (line.rfind("Game: ", 0) == 0) {
                // POKERBOTS_GAME was not set: the rest of init_round comes after our READY.
                game_ = line.substr(6);
                Fields f;
                if (last_line(0) != "Game") f = fields(last_line(0));
                round_fields(f);
            } else if (line == "init_hand") {
                Fields f = fields("Cards");
                hand_ = std::stoi(f["Hand"]);
                cards_ = parse_cards(f["Cards"]);
                if (!start_stacks_.empty() && !carry_) stacks_ = start_stacks_;
                send("READY");
            } else if (line == "play") {
                send(decide_(play()));
            } else if (line == "end_hand") {
                send(end_hand());
            } else if (line.rfind("EndAction: ", 0) == 0) {
                for (int i = 0; i < players_; i++) {
                    if (i) line = read_line();
                    if (!stacks_.empty() && line == "EndAction: REBUY") stacks_[i] = start_stacks_[i];
                    bankrolls_[i] += deltas_[i];
                }
                std::string money = "Money: ";
                for (int i = 0; i < players_; i++)
                    money += (i ? "," : "") + std::to_string(bankrolls_[i]);
                send(money);
            } else if (line == "end_round") {
                fields("NumHands");
                send("Thank you dealer, have a nice day!");
                return;
            } else {
                throw std::runtime_error("unexpected line: " + line);
            }
        }
    }

  private:
    std::function<std::string(const State&)> decide_;
    std::string game_ = "__DEFAULT_GAME__";
    int players_ = 0, button_ = 0, hand_ = 0;
    std::vector<std::string> cards_;
    std::vector<long> bankrolls_, deltas_;
    std::vector<long> start_stacks_, stacks_;  // Hold'em: starting stacks, stacks at hand start
    bool carry_ = false;                       // stacks carry from hand to hand

    // The last line of init_round, play and end_hand ("": play ends after the Action lines).
    // Ante and BigBlindAnte lines of init_round are read wherever they come.
    std::string last_line(int message) const {
        static const std::map<std::string, std::vector<std::string>> table = {
            // __GAME_LINES__ (one row per game, written by pokerbots new)
        };
        auto found = table.find(game_);
        if (found == table.end()) throw std::runtime_error("unknown game " + game_);
        return found->second[message];
    }

    static std::string read_line() {
        std::string line;
        if (!std::getline(std::cin, line)) std::exit(0);  // the server closed the pipe
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return line;
    }

    static void send(const std::string& reply) { std::cout << reply << std::endl; }

    // Read "Key: value" lines up to the one named last.
    static Fields fields(const std::string& last) {
        Fields f;
        for (;;) {
            std::string line = read_line();
            auto colon = line.find(": ");
            if (colon == std::string::npos) throw std::runtime_error("unexpected line: " + line);
            std::string key = line.substr(0, colon);
            f[key] = line.substr(colon + 2);
            if (key == last) return f;
        }
    }

    void actions(std::vector<std::string>& words, std::vector<long>& fronts) const {
        for (int i = 0; i < players_; i++) {
            std::istringstream in(read_line());
            std::string label, word;
            long value;
            in >> label >> word >> value;
            words.push_back(word);
            fronts.push_back(value);
        }
    }

    void round_fields(Fields& f) {
        if (f.count("Stack")) {
            start_stacks_ = parse_list(f["Stack"]);
            start_stacks_.resize(players_, start_stacks_[0]);  // one value: the same for all
            stacks_ = start_stacks_;
        }
        carry_ = f["StackMode"] == "carry";
    }

    State play() const {
        State s;
        s.game = game_;
        s.players = players_;
        s.hand = hand_;
        s.button = (button_ + hand_) % players_;
        s.cards = cards_;
        s.bankrolls = bankrolls_;
        actions(s.words, s.fronts);
        Fields f;
        if (!last_line(1).empty()) f = fields(last_line(1));
        if (f.count("Board")) s.board = parse_cards(f["Board"]);
        if (f.count("Pot")) s.pot = std::stol(f["Pot"]);
        s.front = s.fronts[0];
        s.table_bet = *std::max_element(s.fronts.begin(), s.fronts.end());
        s.call = s.table_bet;
        if (f.count("Stacks")) {
            s.stacks = parse_list(f["Stacks"]);
            s.call = std::min(s.call, s.front + s.stacks[0]);  // all-in for less
        }
        s.can_fold = s.table_bet > s.front;
        if (!f.count("Raise")) {  // Kuhn: one bet of 1, while nobody has bet
            s.can_raise = s.table_bet == s.front;
            s.raise_min = s.raise_max = s.front + 1;
        } else if (f["Raise"] != "-") {
            std::vector<long> range = parse_list(f["Raise"]);
            s.can_raise = true;
            s.raise_min = range[0];
            s.raise_max = range[1];
        }
        return s;
    }

    // Work out everyone's result for the hand; answer OK, or REBUY when broke.
    std::string end_hand() {
        std::vector<std::string> words;
        std::vector<long> fronts;
        actions(words, fronts);
        Fields f = fields(last_line(2));
        if (f.count("Stacks")) {  // Hold'em: the change of each stack
            std::vector<long> after = parse_list(f["Stacks"]);
            deltas_.assign(players_, 0);
            for (int i = 0; i < players_; i++) deltas_[i] = after[i] - stacks_[i];
            stacks_ = after;
            return carry_ && after[0] == 0 && start_stacks_[0] > 0 ? "REBUY" : "OK";
        }
        // Kuhn and Leduc: the pots won less the chips put in
        std::vector<long> spent = f.count("Totals") ? parse_list(f["Totals"]) : fronts;
        deltas_.assign(players_, 0);
        for (int i = 0; i < players_; i++) deltas_[i] = -spent[i];
        std::istringstream pots(f["Pots"]);
        for (std::string pot; pots >> pot;) {
            std::vector<long> share = parse_list(pot);
            deltas_[share[1]] += share[0];
        }
        return "OK";
    }
};

// A seed for your random numbers: the one the server gives this seat (POKERBOTS_SEED), so that
// a match replayed with the same seed plays the same again; outside a match, a random one.
// For instance std::mt19937_64 rng(poker::seed());
inline std::uint64_t seed() {
    const char* text = std::getenv("POKERBOTS_SEED");
    if (text && *text) {
        char* end;
        unsigned long long value = std::strtoull(text, &end, 10);
        if (!*end) return value;
    }
    return (std::uint64_t(std::random_device()()) << 32) ^ std::random_device()();
}

// Play one round on stdin and stdout.
inline void run(std::function<std::string(const State&)> decide) {
    std::ios::sync_with_stdio(false);
    Client(std::move(decide)).run();
}

}  // namespace poker
