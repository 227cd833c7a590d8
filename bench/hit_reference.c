/*
 * The physical limit of a hit test on this machine: the suite's 1,110-view world (a key window of 1000x1000
 * holding 10 panels of 10 groups of 10 leaves, less one leaf; Sources/ResponderBench/Worlds.swift) as flat C
 * arrays, hit-tested at the suite's point (550, 555) the way UIKit does (H2-H4: a hidden, non-interactive or
 * nearly transparent view answers nothing, nor does one outside whose bounds the point falls; otherwise its
 * children are asked front-most first, the point in each one's coordinates (its frame's origin taken away, its
 * bounds' origin added), and the first that answers wins; none answering, the view itself is the hit). Each view
 * asked is recorded with whether it answered, as the engine records its visits, so both do the same work.
 *
 *     cc -O2 -o hit_reference bench/hit_reference.c && ./hit_reference 1000
 *
 * `responder-bench suite --only reference` compiles it with the system cc and counts its instructions per hit
 * test under callgrind beside the engine's own in-process hit test over the same world.
 */
#include <stdio.h>
#include <stdlib.h>

enum { MAX_VIEWS = 1200, MAX_VISITS = 64 };

static double frame_x[MAX_VIEWS], frame_y[MAX_VIEWS], frame_w[MAX_VIEWS], frame_h[MAX_VIEWS];
static double bounds_x[MAX_VIEWS], bounds_y[MAX_VIEWS], alpha[MAX_VIEWS];
static unsigned char hidden[MAX_VIEWS], interactive[MAX_VIEWS];
/* Children of view i: child_index[first_child[i] ..< first_child[i] + child_count[i]], back to front. */
static int first_child[MAX_VIEWS], child_count[MAX_VIEWS], child_index[MAX_VIEWS];
static int views, children;

struct visit {
    int view;
    int hit;
};

static int add_view(double x, double y, double w, double h) {
    frame_x[views] = x;
    frame_y[views] = y;
    frame_w[views] = w;
    frame_h[views] = h;
    bounds_x[views] = bounds_y[views] = 0;
    alpha[views] = 1;
    hidden[views] = 0;
    interactive[views] = 1;
    child_count[views] = 0;
    return views++;
}

static void build(void) {
    int window = add_view(0, 0, 1000, 1000), panels[10], groups[10];
    first_child[window] = children;
    for (int p = 0; p < 10; p++) child_index[children++] = panels[p] = add_view(0, p * 100, 1000, 100);
    child_count[window] = 10;
    for (int p = 0; p < 10; p++) {
        first_child[panels[p]] = children;
        for (int g = 0; g < 10; g++) child_index[children++] = groups[g] = add_view(g * 100, 0, 100, 100);
        child_count[panels[p]] = 10;
        for (int g = 0; g < 10; g++) {
            first_child[groups[g]] = children;
            for (int l = 0; l < 10; l++) {
                if (p == 9 && g == 9 && l == 9) continue;
                child_index[children++] = add_view(0, l * 10, 100, 10);
                child_count[groups[g]]++;
            }
        }
    }
}

/* Whether `v` answers a point in its own coordinates (H2, H3). */
static inline int answers(int v, double x, double y) {
    return !hidden[v] && interactive[v] && alpha[v] >= 0.01 && x >= bounds_x[v] && y >= bounds_y[v] &&
           x < bounds_x[v] + frame_w[v] && y < bounds_y[v] + frame_h[v];
}

/* The hit view (or -1) for a point in `view`'s own coordinates; every view asked lands in `visits`. Iterative,
 * as the engine's is: a deep tree must not exhaust the stack. */
static int hit_test(int root, double x, double y, struct visit *visits, int *visited) {
    int stack_view[64], stack_next[64];
    double stack_x[64], stack_y[64];
    int depth = 0, n = 0;
    int inside = answers(root, x, y);
    visits[n++] = (struct visit){root, inside};
    if (!inside) {
        *visited = n;
        return -1;
    }
    stack_view[0] = root, stack_next[0] = child_count[root] - 1, stack_x[0] = x, stack_y[0] = y;
    for (;;) {
        int v = stack_view[depth];
        if (stack_next[depth] < 0) {
            *visited = n;
            return v; /* no child answered: the view itself */
        }
        int c = child_index[first_child[v] + stack_next[depth]--];
        double cx = stack_x[depth] - frame_x[c] + bounds_x[c], cy = stack_y[depth] - frame_y[c] + bounds_y[c];
        int in = answers(c, cx, cy);
        visits[n++] = (struct visit){c, in};
        if (in) {
            depth++;
            stack_view[depth] = c, stack_next[depth] = child_count[c] - 1, stack_x[depth] = cx, stack_y[depth] = cy;
        }
    }
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000;
    build();
    struct visit visits[MAX_VISITS];
    int visited = 0;
    long sum = 0;
    for (long i = 0; i < rounds; i++) {
        /* The point through a volatile: the compiler may not hoist the hit test out of the loop. */
        volatile double px = 550, py = 555;
        sum += hit_test(0, px, py, visits, &visited) + visited;
    }
    printf("views %d, hit view %d, %d views asked, checksum %ld\n", views, hit_test(0, 550, 555, visits, &visited),
           visited, sum);
    return 0;
}
