// Runs the seed write-up's C++ row-transition table on boards read from a
// file, so it and bitbench's variants are measured on the same inputs on
// the same machine. The seed's code is not in this repository: `run`
// extracts it from ../shared/seeds/components-row-table.md at build time
// and this file includes it, its `main` renamed out of the way.
//
//   driver --print BOARDS   the components of each board, one line each, in
//                           bitbench's output format (sorted by lowest bit)
//   driver --time BOARDS    ns/board of GetComponents, the minimum over
//                           rounds of whole passes over the boards
#define main seed_main
#include SEED_SOURCE
#undef main

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using u128 = unsigned __int128;

// One board in bitbench's picture form: 12 rows of 6 cells separated by
// '/', top row first, '#' or '1' set. Bit = row * 6 + col.
bool parse(const std::string& line, u128& bits) {
  bits = 0;
  int row = 0, col = 0;
  for (char ch : line) {
    if (ch == '/') {
      if (col != 6) return false;
      ++row;
      col = 0;
    } else if (ch == '#' || ch == '1' || ch == '.' || ch == '0') {
      if (row > 11 || col > 5) return false;
      if (ch == '#' || ch == '1') bits |= u128(1) << (row * 6 + col);
      ++col;
    } else {
      return false;
    }
  }
  return row == 11 && col == 6;
}

void print_hex(u128 m) {
  uint64_t hi = uint64_t(m >> 64), lo = uint64_t(m);
  if (hi) std::printf("0x%llx%016llx", (unsigned long long)hi, (unsigned long long)lo);
  else std::printf("0x%llx", (unsigned long long)lo);
}

int lowest(u128 m) {
  uint64_t lo = uint64_t(m);
  return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(uint64_t(m >> 64));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "--print") && std::strcmp(argv[1], "--time"))) {
    std::fprintf(stderr, "usage: driver --print|--time BOARDS\n");
    return 2;
  }
  std::ifstream in(argv[2]);
  if (!in) {
    std::fprintf(stderr, "driver: %s: cannot read\n", argv[2]);
    return 2;
  }
  std::vector<Bitboard> boards;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    u128 bits;
    if (!parse(line, bits)) {
      std::fprintf(stderr, "driver: %s: line %d is not a 6x12 picture board\n", argv[2], n);
      return 2;
    }
    Bitboard b;
    b.board = mybitset(bits);
    boards.push_back(b);
  }
  BitboardComponents bc;
  if (argv[1][2] == 'p') {
    for (const Bitboard& b : boards) {
      bc.GetComponents(b);
      std::vector<u128> found;
      for (int i = 1; i < bc.componentCount; ++i)
        if (bc.components[i].board.data) found.push_back(bc.components[i].board.data);
      std::sort(found.begin(), found.end(),
                [](u128 a, u128 b) { return lowest(a) < lowest(b); });
      for (size_t i = 0; i < found.size(); ++i) {
        if (i) std::printf(" ");
        print_hex(found[i]);
      }
      std::printf("\n");
    }
    return 0;
  }
  // Rounds of whole passes, like the seed's own loop (which consumes one
  // word of the result so the call is not optimised away).
  using clock = std::chrono::steady_clock;
  double best = 1e300;
  uint64_t sink = 0;
  for (int round = 0; round < 30; ++round) {
    auto start = clock::now();
    for (const Bitboard& b : boards) {
      bc.GetComponents(b);
      sink ^= bc.components[1].board.to_ullong();
    }
    double ns = std::chrono::duration<double, std::nano>(clock::now() - start).count();
    best = std::min(best, ns / boards.size());
  }
  std::printf("%.1f\n", best);
  return sink == 42 ? 1 : 0;
}
