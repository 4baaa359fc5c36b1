/*
 * burner [THREADS] [MIB]: keeps THREADS threads spinning and MIB mebibytes resident until a signal ends it, and says
 * so on stdout. The real node's test workload: an online pod and a BE pod that burns CPU and fills memory.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *spin(void *unused) {
    volatile unsigned long x = 0;
    (void)unused;
    for (;;) {
        x++;
    }
    return 0;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    long mib = argc > 2 ? atol(argv[2]) : 0;
    if (mib > 0) {
        char *held = malloc((size_t)mib << 20);
        if (held == 0) {
            fprintf(stderr, "burner: cannot allocate %ld MiB\n", mib);
            return 1;
        }
        memset(held, 1, (size_t)mib << 20);
    }
    printf("burner: %d threads, %ld MiB resident\n", threads, mib);
    fflush(stdout);
    for (int i = 1; i < threads; i++) {
        pthread_t t;
        pthread_create(&t, 0, spin, 0);
    }
    if (threads > 0) {
        spin(0);
    }
    for (;;) {
        pause();
    }
}
