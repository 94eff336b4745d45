//! `damas-server`: the room server's command line.

fn main() {
    eprintln!("damas-server: the server entry point is not built yet");
    std::process::exit(2);
}
