// Prints the JavaScript kit's mix of the items on the command line (reply weight ...), for a
// decision facing a bet: call 10, raise 20 to 100, fold at 5. Run in a kit's folder.
'use strict';

const { State } = require('./poker.js');

const client = { game: 'holdem-nl', players: 2, hand: 0, button: 0, cards: ['Ah', 'Kd'], bankrolls: [0, 0] };
const state = new State(client, ['BLIND', 'BLIND'], [5, 10], { Raise: '20,100' });
const args = process.argv.slice(2);
const items = [];
for (let i = 0; i + 1 < args.length; i += 2) items.push([args[i], Number(args[i + 1])]);
console.log(state.mix(items));
