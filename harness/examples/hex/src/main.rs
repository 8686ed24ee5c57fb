bitbench::main!(hex_encoders::HEX);
