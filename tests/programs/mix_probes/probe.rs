// Prints the Rust kit's mix of the items on the command line (reply weight ...), for a
// decision facing a bet: call 10, raise 20 to 100, fold at 5. Built as src/probe.rs of a kit.
#[path = "poker.rs"]
mod poker;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let items: Vec<(String, i64)> = args
        .chunks(2)
        .map(|pair| (pair[0].clone(), pair[1].parse().expect("a weight")))
        .collect();
    let s = poker::State {
        players: 2,
        front: 5,
        table_bet: 10,
        call: 10,
        can_fold: true,
        can_raise: true,
        raise_min: 20,
        raise_max: 100,
        ..Default::default()
    };
    println!("{}", s.mix(&items));
}
