bitbench::main!(perft::PERFT);
