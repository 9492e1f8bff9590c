// An independent 15-puzzle solver for scripts/bench-npuzzle: IDA* with the Manhattan
// distance plus linear conflicts, written from the textbook, sharing nothing with puz.
//
// Input: one problem per line, 32 integers: the start (16 numbers in reading order, 0 the
// blank), then the goal (the same). Output per line: the fewest moves (-1 when the parity
// says there is none), the nodes generated and the seconds taken.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static int goal_pos[16];
static int board[16];
static long long nodes;

static int manhattan_tile(int t, int p) {
    int g = goal_pos[t];
    return std::abs(p / 4 - g / 4) + std::abs(p % 4 - g % 4);
}

// Linear conflicts: two tiles in their goal row (column) in reversed order need two
// extra moves; per line, 2 * (tiles in the line - longest increasing subsequence).
static int conflicts() {
    int extra = 0;
    for (int line = 0; line < 4; line++) {
        for (int axis = 0; axis < 2; axis++) {
            int key[4], n = 0;
            for (int i = 0; i < 4; i++) {
                int p = axis == 0 ? line * 4 + i : i * 4 + line;
                int t = board[p];
                if (t == 0) continue;
                int g = goal_pos[t];
                if (axis == 0 ? g / 4 == line : g % 4 == line) key[n++] = axis == 0 ? g % 4 : g / 4;
            }
            int lis[4], best = 0;
            for (int i = 0; i < n; i++) {
                lis[i] = 1;
                for (int j = 0; j < i; j++)
                    if (key[j] < key[i] && lis[j] + 1 > lis[i]) lis[i] = lis[j] + 1;
                if (lis[i] > best) best = lis[i];
            }
            extra += 2 * (n - best);
        }
    }
    return extra;
}

static int heuristic() {
    int h = 0;
    for (int p = 0; p < 16; p++)
        if (board[p]) h += manhattan_tile(board[p], p);
    return h + conflicts();
}

static const int DR[4] = {-1, 1, 0, 0}, DC[4] = {0, 0, -1, 1};

static int search(int blank, int g, int bound, int prev) {
    int h = heuristic();
    int f = g + h;
    if (f > bound) return f;
    if (h == 0) return -1;
    int next = 1 << 30;
    for (int d = 0; d < 4; d++) {
        if (prev >= 0 && (d ^ 1) == prev) continue;
        int r = blank / 4 + DR[d], c = blank % 4 + DC[d];
        if (r < 0 || r > 3 || c < 0 || c > 3) continue;
        int q = r * 4 + c;
        nodes++;
        board[blank] = board[q];
        board[q] = 0;
        int t = search(q, g + 1, bound, d);
        board[q] = board[blank];
        board[blank] = 0;
        if (t == -1) return -1;
        if (t < next) next = t;
    }
    return next;
}

static bool solvable(const int *start, const int *goal) {
    // Parity of the permutation taking goal to start, plus the blank's taxicab distance.
    int pos[16];
    for (int p = 0; p < 16; p++) pos[goal[p]] = p;
    int perm[16];
    for (int p = 0; p < 16; p++) perm[p] = pos[start[p]];
    bool seen[16] = {};
    int cycles = 0;
    for (int i = 0; i < 16; i++) {
        if (seen[i]) continue;
        cycles++;
        for (int j = i; !seen[j]; j = perm[j]) seen[j] = true;
    }
    int bs = 0, bg = 0;
    for (int p = 0; p < 16; p++) {
        if (start[p] == 0) bs = p;
        if (goal[p] == 0) bg = p;
    }
    int dist = std::abs(bs / 4 - bg / 4) + std::abs(bs % 4 - bg % 4);
    return ((16 - cycles) + dist) % 2 == 0;
}

int main() {
    int start[16], goal[16];
    while (true) {
        for (int i = 0; i < 16; i++)
            if (std::scanf("%d", &start[i]) != 1) return 0;
        for (int i = 0; i < 16; i++)
            if (std::scanf("%d", &goal[i]) != 1) return 1;
        auto t0 = std::chrono::steady_clock::now();
        nodes = 0;
        int answer = -1;
        if (solvable(start, goal)) {
            int blank = 0;
            for (int p = 0; p < 16; p++) {
                board[p] = start[p];
                goal_pos[goal[p]] = p;
                if (start[p] == 0) blank = p;
            }
            int bound = heuristic();
            while (true) {
                int t = search(blank, 0, bound, -1);
                if (t == -1) break;
                bound = t;
            }
            answer = bound;
        }
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%d %lld %.3f\n", answer, nodes, secs);
        std::fflush(stdout);
    }
}
