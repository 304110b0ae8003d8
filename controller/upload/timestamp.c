#include "upload/timestamp.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define TS_MS_PER_S 1000LL
#define TS_NS_PER_MS 1000000L
#define TS_S_PER_MIN 60LL
#define TS_MIN_PER_HOUR 60
#define TS_MAX_HOUR 23
#define TS_MAX_MINUTE 59
#define TS_MAX_SECOND 60 /* a leap second */
#define TS_MIN_YEAR 1970
#define TS_MAX_YEAR 9999
#define TS_FRACTION_DIGITS 3

/* n decimal digits at *p into *out, advancing *p; false unless all n are digits. */
static bool digits(const char **p, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		char c = (*p)[i];
		if (c < '0' || c > '9')
			return false;
		v = v * 10 + (c - '0');
	}
	*p += n;
	*out = v;
	return true;
}

static bool expect(const char **p, char c)
{
	if (**p != c)
		return false;
	(*p)++;
	return true;
}

static int days_in_month(int year, int month)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	return month == 2 && leap ? 29 : days[month - 1];
}

/* Milliseconds of the fraction after a '.', at least one digit; advances *p. */
static bool fraction(const char **p, int *ms)
{
	int v = 0, n = 0;
	while (**p >= '0' && **p <= '9') {
		if (n < TS_FRACTION_DIGITS) {
			v = v * 10 + (**p - '0');
			n++;
		}
		(*p)++;
	}
	if (n == 0)
		return false;
	for (; n < TS_FRACTION_DIGITS; n++)
		v *= 10;
	*ms = v;
	return true;
}

/* The zone designator: Z, or +hh:mm / -hh:mm as seconds east of UTC. */
static bool zone(const char **p, long long *offset_s)
{
	if (expect(p, 'Z')) {
		*offset_s = 0;
		return true;
	}
	char sign = **p;
	if (sign != '+' && sign != '-')
		return false;
	(*p)++;
	int hh = 0, mm = 0;
	if (!digits(p, 2, &hh) || !expect(p, ':') || !digits(p, 2, &mm) || hh > TS_MAX_HOUR ||
	    mm > TS_MAX_MINUTE)
		return false;
	long long v = ((long long)hh * TS_MIN_PER_HOUR + mm) * TS_S_PER_MIN;
	*offset_s = sign == '+' ? v : -v;
	return true;
}

/* The instant of a UTC calendar time (offset_s east of UTC), its fields
 * checked; false when one is out of range. */
static bool civil_ms(int year, int month, int day, int hour, int minute, int second, int milli,
                     long long offset_s, int64_t *ms)
{
	if (year < TS_MIN_YEAR || year > TS_MAX_YEAR || month < 1 || month > 12 || day < 1 ||
	    day > days_in_month(year, month) || hour > TS_MAX_HOUR || minute > TS_MAX_MINUTE ||
	    second > TS_MAX_SECOND)
		return false;
	struct tm tm = {0};
	tm.tm_year = year - 1900;
	tm.tm_mon = month - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = minute;
	tm.tm_sec = second;
	time_t t = timegm(&tm);
	*ms = ((int64_t)t - offset_s) * TS_MS_PER_S + milli;
	return true;
}

bool br_upload_time_parse(const char *text, int64_t *ms)
{
	const char *p = text;
	int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, milli = 0;
	if (!digits(&p, 4, &year) || !expect(&p, '-') || !digits(&p, 2, &month) ||
	    !expect(&p, '-') || !digits(&p, 2, &day) || !expect(&p, 'T') || !digits(&p, 2, &hour) ||
	    !expect(&p, ':') || !digits(&p, 2, &minute) || !expect(&p, ':') ||
	    !digits(&p, 2, &second))
		return false;
	if (*p == '.') {
		p++;
		if (!fraction(&p, &milli))
			return false;
	}
	long long offset_s = 0;
	if (!zone(&p, &offset_s) || *p != '\0')
		return false;
	return civil_ms(year, month, day, hour, minute, second, milli, offset_s, ms);
}

/* The results/paths.h stamp at the start of name: YYYYMMDDTHHMMSS.mmmZ. */
static bool file_stamp(const char *name, int64_t *ms)
{
	const char *p = name;
	int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, milli = 0;
	if (!digits(&p, 4, &year) || !digits(&p, 2, &month) || !digits(&p, 2, &day) ||
	    !expect(&p, 'T') || !digits(&p, 2, &hour) || !digits(&p, 2, &minute) ||
	    !digits(&p, 2, &second) || !expect(&p, '.') || !digits(&p, 3, &milli) ||
	    !expect(&p, 'Z'))
		return false;
	return civil_ms(year, month, day, hour, minute, second, milli, 0, ms);
}

bool br_upload_time_of_run(const char *timestamp, const char *run_file, int64_t *ms)
{
	int64_t t = 0;
	if (!br_upload_time_parse(timestamp, &t))
		return false;
	const char *slash = strrchr(run_file, '/');
	int64_t f = 0;
	if (t % TS_MS_PER_S == 0 && file_stamp(slash != NULL ? slash + 1 : run_file, &f) &&
	    f / TS_MS_PER_S == t / TS_MS_PER_S)
		t = f;
	*ms = t;
	return true;
}

void br_upload_time_format(int64_t ms, char *buf, size_t cap)
{
	time_t t = (time_t)(ms / TS_MS_PER_S);
	int milli = (int)(ms % TS_MS_PER_S);
	if (milli < 0) {
		milli += (int)TS_MS_PER_S;
		t--;
	}
	struct tm tm;
	gmtime_r(&t, &tm);
	char base[32];
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, cap, "%s.%03dZ", base, milli);
}

int64_t br_upload_time_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * TS_MS_PER_S + ts.tv_nsec / TS_NS_PER_MS;
}
