/* test_job_trace.c -- the job-trace reader's time and duration forms
 * (model/job_trace.h): expected values computed by hand from the calendar
 * (2020-06-09 is day 18422 since 1970-01-01: 50 years with 12 leap days =
 * 18262, plus 160 days of 2020 before June 9). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/job_trace.h"

static void test_times(void **state) {
    (void)state;
    int64_t ms;
    const int64_t day = 18422LL * 86400 * 1000;
    assert_int_equal(job_parse_time("2020-06-09 18:41:01", &ms), 0);
    assert_true(ms == day + (18 * 3600 + 41 * 60 + 1) * 1000LL);
    assert_int_equal(job_parse_time("2020-06-09T18:41:01", &ms), 0);   /* Slurm */
    assert_true(ms == day + (18 * 3600 + 41 * 60 + 1) * 1000LL);
    assert_int_equal(job_parse_time("2020-06-09 18:41:01+08:00", &ms), 0);   /* Acme: 10:41:01 UTC */
    assert_true(ms == day + (10 * 3600 + 41 * 60 + 1) * 1000LL);
    assert_int_equal(job_parse_time("2020-06-09T18:41:01.250Z", &ms), 0);
    assert_true(ms == day + (18 * 3600 + 41 * 60 + 1) * 1000LL + 250);
    assert_int_equal(job_parse_time("1591728061", &ms), 0);   /* epoch seconds */
    assert_true(ms == 1591728061000LL);
    assert_int_equal(job_parse_time("12.5", &ms), 0);
    assert_true(ms == 12500);
    assert_int_equal(job_parse_time("2020-13-09 18:41:01", &ms), -1);
    assert_int_equal(job_parse_time("2020-06-09 18:4x:01", &ms), -1);
    assert_int_equal(job_parse_time("2020-06-09", &ms), -1);
    assert_int_equal(job_parse_time("", &ms), -1);
    assert_int_equal(job_parse_time("-5", &ms), -1);
}

static void test_durations(void **state) {
    (void)state;
    int64_t ms;
    assert_int_equal(job_parse_duration("36848", &ms), 0);
    assert_true(ms == 36848000);
    assert_int_equal(job_parse_duration("01:00:00", &ms), 0);
    assert_true(ms == 3600000);
    assert_int_equal(job_parse_duration("1-02:00:00", &ms), 0);   /* Elapsed with days */
    assert_true(ms == 93600000);
    assert_int_equal(job_parse_duration("10:30", &ms), 0);   /* MM:SS */
    assert_true(ms == 630000);
    assert_int_equal(job_parse_duration("1-10:30", &ms), -1);   /* days need HH:MM:SS */
    assert_int_equal(job_parse_duration("1:2:3:4", &ms), -1);
    assert_int_equal(job_parse_duration("abc", &ms), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_durations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
