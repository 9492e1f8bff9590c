// klotski_big.cpp: ../shared/bench/klotski.cpp (copied verbatim, then) adapted to the
// benchmark's bigger layout, a 6x4 board (scripts/bench, "many pieces"). Changes, and
// nothing else (still a plain BFS over an unordered_map of packed boards):
//   - R = 6 rows instead of 5, so the board has 24 cells: the cell arrays hold R*C cells
//     (were 20), and 24 cells x 3 bits = 72 bits no longer fit a u64, so the packed key is
//     an unsigned __int128 (with a hash that folds its two halves);
//   - the goal is the 2x2's top-left cell at row R-2, column 1 (was row 3 = 5-2), the
//     bottom middle as before.
// The piece set, cell codes, moves and output are the original's.
// Plain Klotski BFS (unit moves, interchangeable same-shape pieces), as a competent
// contest programmer would write it: board as 20 cells, canonical code = piece-type per
// cell (3 bits) packed in a u64, unordered_set visited. Reads a 6x4 board on stdin:
// A=2x2, B=2x1 horizontal, G/g vertical 1x2 (top cell marks), S=1x1, . empty.
// Prints: min unit moves for the 2x2 to reach rows 3-4, cols 1-2; reachable states.
#include <bits/stdc++.h>
using namespace std;
typedef unsigned long long u64;
const int R = 6, C = 4;
const int N = R * C;
typedef unsigned __int128 key;
struct KeyHash { size_t operator()(key k) const { return hash<u64>()((u64)k ^ (u64)(k >> 64) * 0x9E3779B97F4A7C15ULL); } };
// cell codes: 0 empty, 1 soldier, 2 general top, 3 general bottom, 4 guan left, 5 guan right,
// 6 cao top-left, 7 other cao cells
struct P { int h, w, top; };
int main() {
    vector<string> g(R);
    for (auto &r : g) cin >> r;
    array<int, N> b{};
    vector<vector<int>> seen(R, vector<int>(C, 0));
    for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) {
        char ch = g[r][c];
        if (ch == '.') continue;
        if (seen[r][c]) continue;
        if (ch == 'S') { b[r*C+c] = 1; }
        else if (ch == 'G' || ch == 'g') { b[r*C+c] = 2; b[(r+1)*C+c] = 3; seen[r+1][c] = 1; }
        else if (ch == 'B') { b[r*C+c] = 4; b[r*C+c+1] = 5; seen[r][c+1] = 1; }
        else if (ch == 'A') { b[r*C+c] = 6; b[r*C+c+1] = 7; b[(r+1)*C+c] = 7; b[(r+1)*C+c+1] = 7; seen[r][c+1]=seen[r+1][c]=seen[r+1][c+1]=1; }
    }
    auto enc = [](const array<int,N>& a) { key k = 0; for (int i = 0; i < N; i++) k |= (key)a[i] << (3*i); return k; };
    auto dec = [](key k) { array<int,N> a; for (int i = 0; i < N; i++) a[i] = (int)(k >> (3*i)) & 7; return a; };
    unordered_map<key, int, KeyHash> dist;
    deque<key> q;
    key s = enc(b); dist[s] = 0; q.push_back(s);
    int best = -1;
    int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    while (!q.empty()) {
        key k = q.front(); q.pop_front();
        int d = dist[k];
        auto a = dec(k);
        if (best < 0 && a[(R-2)*C+1] == 6) best = d;
        for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) {
            int t = a[r*C+c];
            int h, w;
            if (t == 1) h = 1, w = 1; else if (t == 2) h = 2, w = 1; else if (t == 4) h = 1, w = 2; else if (t == 6) h = 2, w = 2; else continue;
            for (int m = 0; m < 4; m++) {
                int nr = r + dr[m], nc = c + dc[m];
                if (nr < 0 || nc < 0 || nr + h > R || nc + w > C) continue;
                bool ok = true;
                for (int i = 0; i < h && ok; i++) for (int j = 0; j < w && ok; j++) {
                    int rr = nr + i, cc = nc + j;
                    if (rr >= r && rr < r + h && cc >= c && cc < c + w) continue;
                    if (a[rr*C+cc]) ok = false;
                }
                if (!ok) continue;
                auto na = a;
                for (int i = 0; i < h; i++) for (int j = 0; j < w; j++) na[(r+i)*C+c+j] = 0;
                for (int i = 0; i < h; i++) for (int j = 0; j < w; j++) na[(nr+i)*C+nc+j] = a[(r+i)*C+c+j];
                key nk = enc(na);
                if (!dist.count(nk)) { dist[nk] = d + 1; q.push_back(nk); }
            }
        }
    }
    printf("%d %zu\n", best, dist.size());
}
