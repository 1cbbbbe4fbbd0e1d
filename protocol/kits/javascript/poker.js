// poker.js: a small client for the pokerbots protocol, with Node's standard library only.
//
// run() reads the server's messages on stdin, answers every bookkeeping message itself
// (READY, OK or REBUY, Money, the goodbye line), keeps everyone's bankroll and, in Hold'em,
// everyone's stack, and calls your decide(state) for each play message. decide() returns one
// of state.checkOrCall(), state.fold() or state.raiseTo(value), or a mix of them,
// state.mix([...]), from which the server draws the action. Index 0 of every list is you: the
// server rotates them. The protocol is PROTOCOL.md.
'use strict';

const readline = require('readline');

// For each game, the last line of init_round, play and end_hand (null: play ends after the
// Action lines). Ante and BigBlindAnte lines of init_round are read wherever they come.
const LAST_LINE = {
  // __GAME_LINES__ (one row per game, written by pokerbots new)
};

// A mix's bounds: each weight a whole number from 1 to MIX_MAX_WEIGHT, at most MIX_MAX_ITEMS.
const MIX_MAX_WEIGHT = 1000000;
const MIX_MAX_ITEMS = 64;

/** "3,-1,0" -> [3, -1, 0] */
const parseList = (text) => text.split(',').map(Number);
/** "Ah Kd" -> ["Ah", "Kd"]; "-" -> [] */
const parseCards = (text) => (text === '-' ? [] : text.split(' '));

/** A play message: what you need to decide. */
class State {
  constructor(client, words, fronts, fields) {
    this.game = client.game; // the game, as --game names it
    this.players = client.players;
    this.hand = client.hand; // hand number, from 0
    this.button = (client.button + client.hand) % client.players; // seats from you, clockwise
    this.cards = client.cards; // ["Q"] or ["Ah", "Kd"]
    this.board = parseCards(fields.Board || '-');
    this.pot = Number(fields.Pot || 0); // chips from earlier betting rounds
    this.words = words; // each player's latest action: BLIND, PASS, BET, FOLD
    this.fronts = fronts; // money in front on this betting round
    this.stacks = fields.Stacks ? parseList(fields.Stacks) : null; // Hold'em: chips behind
    this.bankrolls = client.bankrolls.slice();
    this.front = fronts[0];
    this.tableBet = Math.max(...fronts);
    // The legal replies, as money-in-front values.
    this.call = this.tableBet; // BET call checks or calls
    if (this.stacks) this.call = Math.min(this.call, this.front + this.stacks[0]); // all-in for less
    this.canFold = this.tableBet > this.front; // FOLD front: only when facing a bet
    this.canRaise = false; // BET raiseMin .. BET raiseMax bets or raises
    this.raiseMin = this.raiseMax = null;
    if (fields.Raise === undefined) { // Kuhn: one bet of 1, while nobody has bet
      this.canRaise = this.tableBet === this.front;
      this.raiseMin = this.raiseMax = this.front + 1;
    } else if (fields.Raise !== '-') {
      this.canRaise = true;
      [this.raiseMin, this.raiseMax] = parseList(fields.Raise);
    }
  }

  /** Chips you add to check (0) or call. */
  toCall() { return this.call - this.front; }
  /** Everything in the middle: the pot and all money in front. */
  potTotal() { return this.fronts.reduce((a, b) => a + b, this.pot); }
  /** True until you act on this betting round. */
  firstActionOnRound() { return this.words[0] === 'BLIND' || this.words[0] === 'PASS'; }

  /** The legal replies, as the server would list them. */
  legal() {
    let text = `BET ${this.call} (${this.toCall() ? 'call' : 'check'})`;
    if (this.canRaise) text += `, BET ${this.raiseMin} to BET ${this.raiseMax} (bet or raise)`;
    if (this.canFold) text += `, FOLD ${this.front}`;
    return text;
  }

  checkOrCall() { return `BET ${this.call}`; }

  fold() {
    if (!this.canFold) throw new Error(`folding is not allowed when checking is free; legal: ${this.legal()}`);
    return `FOLD ${this.front}`;
  }

  raiseTo(value) {
    if (!this.canRaise || !(value >= this.raiseMin && value <= this.raiseMax)) {
      throw new Error(`BET ${value} is not a legal raise; legal: ${this.legal()}`);
    }
    return `BET ${value}`;
  }

  /** Whether the server takes reply (such as "BET 10") as a single reply here. */
  isLegal(reply) {
    const match = /^(BET|FOLD) (0|[1-9][0-9]{0,14})$/.exec(reply);
    if (!match) return false;
    const value = Number(match[2]);
    if (match[1] === 'FOLD') return this.canFold && value === this.front;
    return value === this.call || (this.canRaise && this.raiseMin <= value && value <= this.raiseMax);
  }

  /**
   * A mixed reply: the server plays each reply with probability weight / total. items is an
   * array of [reply, weight] pairs (or a Map), each reply one the methods above return, given
   * once, each weight a whole number from 1 to MIX_MAX_WEIGHT, 1 to MIX_MAX_ITEMS items; one
   * item is that reply. Throws, naming the item, otherwise:
   * state.mix([[state.checkOrCall(), 3], [state.raiseTo(2), 1]]) is 'MIX 3 BET 1,1 BET 2' in
   * Kuhn (check three times in four).
   */
  mix(items) {
    if (!Array.isArray(items) && !(items instanceof Map)) {
      throw new Error(`a mix is an array of [reply, weight] pairs or a Map; legal: ${this.legal()}`);
    }
    const pairs = Array.from(items);
    if (pairs.length < 1 || pairs.length > MIX_MAX_ITEMS) {
      throw new Error(`a mix has 1 to ${MIX_MAX_ITEMS} items, not ${pairs.length}; legal: ${this.legal()}`);
    }
    pairs.forEach(([reply, weight], i) => {
      const item = `item ${i + 1} of the mix, '${reply}'`;
      if (!Number.isInteger(weight) || weight < 1 || weight > MIX_MAX_WEIGHT) {
        throw new Error(`${item}: its weight must be a whole number from 1 to ${MIX_MAX_WEIGHT},`
          + ` not ${weight}; legal: ${this.legal()}`);
      }
      if (!this.isLegal(reply)) throw new Error(`${item}, is not a legal reply; legal: ${this.legal()}`);
      if (pairs.slice(0, i).some(([other]) => other === reply)) {
        throw new Error(`${item}, appears twice; legal: ${this.legal()}`);
      }
    });
    if (pairs.length === 1) return pairs[0][0];
    return `MIX ${pairs.map(([reply, weight]) => `${weight} ${reply}`).join(',')}`;
  }
}

/** Reads the server's messages line by line and keeps the round's state. */
class Client {
  constructor(decide) {
    this.decide = decide;
    this.lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
    this.game = process.env.POKERBOTS_GAME || '__DEFAULT_GAME__';
    this.players = 0;
    this.button = 0;
    this.hand = 0;
    this.cards = [];
    this.bankrolls = [];
    this.deltas = [];
    this.startStacks = null; // Hold'em: each seat's starting stack
    this.stacks = null; // Hold'em: each seat's stack at the start of this hand
    this.carry = false; // stacks carry from hand to hand
  }

  lastLine(message) {
    const lines = LAST_LINE[this.game];
    if (!lines) throw new Error(`unknown game ${this.game}`);
    return lines[message];
  }

  async readLine() {
    const { value, done } = await this.lines.next();
    if (done) process.exit(0); // the server closed the pipe
    return value.replace(/\r$/, '');
  }

  send(reply) {
    process.stdout.write(`${reply}\n`);
  }

  /** Read "Key: value" lines up to the one named last. */
  async fields(last, into = {}) {
    for (;;) {
      const line = await this.readLine();
      const colon = line.indexOf(': ');
      if (colon < 0) throw new Error(`unexpected line: ${line}`);
      const key = line.slice(0, colon);
      into[key] = line.slice(colon + 2);
      if (key === last) return into;
    }
  }

  async actions() {
    const words = [];
    const fronts = [];
    for (let i = 0; i < this.players; i++) {
      const [, word, value] = (await this.readLine()).split(' ');
      words.push(word);
      fronts.push(Number(value));
    }
    return [words, fronts];
  }

  roundFields(f) {
    if (f.Stack !== undefined) {
      const given = parseList(f.Stack);
      this.startStacks = Array.from({ length: this.players }, (_, i) => (given.length === 1 ? given[0] : given[i]));
      this.stacks = this.startStacks.slice();
    }
    this.carry = f.StackMode === 'carry';
  }

  /** Work out everyone's result for the hand; answer OK, or REBUY when broke. */
  async endHand() {
    const [, fronts] = await this.actions();
    const f = await this.fields(this.lastLine(2));
    if (f.Stacks !== undefined) { // Hold'em: the change of each stack
      const after = parseList(f.Stacks);
      this.deltas = after.map((stack, i) => stack - this.stacks[i]);
      this.stacks = after;
      return this.carry && after[0] === 0 && this.startStacks[0] > 0 ? 'REBUY' : 'OK';
    }
    // Kuhn and Leduc: the pots won less the chips put in
    const spent = f.Totals !== undefined ? parseList(f.Totals) : fronts;
    this.deltas = spent.map((chips) => -chips);
    for (const pot of f.Pots.split(' ')) {
      const [amount, winner] = parseList(pot);
      this.deltas[winner] += amount;
    }
    return 'OK';
  }

  async run() {
    for (;;) {
      let line = await this.readLine();
      if (line === 'init_round') {
        const f = await this.fields(this.lastLine(0));
        this.bankrolls = parseList(f.Money);
        this.players = this.bankrolls.length;
        this.button = Number(f.Button);
        this.roundFields(f);
        this.send('READY');
      } else if (line.startsWith('Game: ')) {
        // POKERBOTS_GAME was not set: the rest of init_round comes after our READY.
        this.game = line.slice(6);
        this.roundFields(this.lastLine(0) === 'Game' ? {} : await this.fields(this.lastLine(0)));
      } else if (line === 'init_hand') {
        const f = await this.fields('Cards');
        this.hand = Number(f.Hand);
        this.cards = parseCards(f.Cards);
        if (this.startStacks && !this.carry) this.stacks = this.startStacks.slice();
        this.send('READY');
      } else if (line === 'play') {
        const [words, fronts] = await this.actions();
        const last = this.lastLine(1);
        const state = new State(this, words, fronts, last ? await this.fields(last) : {});
        this.send(this.decide(state));
      } else if (line === 'end_hand') {
        this.send(await this.endHand());
      } else if (line.startsWith('EndAction: ')) {
        for (let i = 0; i < this.players; i++) {
          if (i > 0) line = await this.readLine();
          if (this.stacks && line === 'EndAction: REBUY') this.stacks[i] = this.startStacks[i];
          this.bankrolls[i] += this.deltas[i];
        }
        this.send(`Money: ${this.bankrolls.join(',')}`);
      } else if (line === 'end_round') {
        await this.fields('NumHands');
        this.send('Thank you dealer, have a nice day!');
        process.exit(0);
      } else {
        throw new Error(`unexpected line: ${line}`);
      }
    }
  }
}

/**
 * The seed for your random numbers (a BigInt): the one the server gives this seat
 * (POKERBOTS_SEED), so that a match replayed with the same seed plays the same again; outside
 * a match, one from the clock.
 */
function seed() {
  const text = process.env.POKERBOTS_SEED || '';
  if (/^[0-9]+$/.test(text)) return BigInt.asUintN(64, BigInt(text));
  return BigInt.asUintN(64, process.hrtime.bigint() ^ BigInt(Date.now()));
}

/**
 * A random number generator seeded with seed() (SplitMix64), since Math.random cannot be
 * seeded: each call of the function it returns gives a number from 0 to 1, 1 left out.
 */
function seededRandom(from = seed()) {
  let state = BigInt.asUintN(64, from);
  return () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  };
}

/** Play one round on stdin and stdout, calling decide(state) for every decision. */
function run(decide) {
  new Client(decide).run().catch((error) => {
    console.error(error.stack || String(error));
    process.exit(1);
  });
}

module.exports = { run, State, parseList, parseCards, seed, seededRandom };
