bitbench::main!(popcount::POPCOUNT);
