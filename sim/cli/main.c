/* main.c -- `drasim SUBCOMMAND ...`: dispatch, --help and --version. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/input_files.h"

typedef struct command {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} command;

static const command commands[] = {
    {"run", cmd_run, "simulate a scenario and store the results in SQLite"},
    {"inventory", cmd_inventory, "write a scenario's cluster as Kubernetes objects (Nodes, DeviceClasses, ResourceSlices)"},
    {"state", cmd_state, "write a scenario's pods and claims at a simulated time as a kubectl List (cluster.state)"},
    {"cel", cmd_cel, "evaluate a CEL expression, optionally against a device (`cel eval`)"},
    {"allocate", cmd_allocate, "run the DRA allocator on claims, slices and classes from YAML files"},
    {"report", cmd_report, "draw plots and an HTML page from a results database"},
    {"check", cmd_check, "run a scenario and check quality thresholds (CI mode)"},
    {"compare", cmd_compare, "compare the summary metrics of two results databases"},
    {"sweep", cmd_sweep, "run a scenario over a grid of parameter values"},
    {"plan", cmd_plan, "find the smallest or cheapest fleet meeting an expect file"},
    {"merge", cmd_merge, "merge results databases (the shards of a sweep) into one"},
    {"admit", cmd_admit, "would Kueue admit this Workload now, and why not (--shares: DRS per queue)"},
    {"kueue-perf", cmd_kueue_perf, "replay a Kueue performance generator config (usage, time to admission per class)"},
};

static void usage(FILE *out) {
    fprintf(out, "usage: drasim COMMAND [OPTIONS] ...\n\n"
                 "drasim simulates Kubernetes GPU scheduling with Dynamic Resource Allocation\n"
                 "and with the device plugin, and stores what happened in SQLite.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`drasim COMMAND --help` describes a command. `drasim --version` prints the version.\n"
                 "exit codes: 0 success, 1 negative answer (no fit, failed check, CEL error),\n"
                 "            2 usage or processing error, 3 invalid input file.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return EXIT_ERROR;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("drasim %s\n", DRASIM_VERSION);
        return EXIT_OK;
    }
    cli_signals_install();
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (strcmp(argv[1], commands[i].name) != 0) continue;
        int rc = commands[i].fn(argc - 1, argv + 1);
        input_files_reset();
        return rc;
    }
    fprintf(stderr, "drasim: unknown command '%s' (see drasim --help)\n", argv[1]);
    return EXIT_ERROR;
}
