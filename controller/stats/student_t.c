#include "stats/student_t.h"

#include <math.h>

#define STUDENT_BISECT_STEPS 300
#define STUDENT_T_MAX 1e7
#define STUDENT_TOLERANCE 1e-10
#define STUDENT_PI 3.14159265358979323846

double br_stats_student_central(double t, size_t df)
{
	if (df == 0 || isnan(t))
		return (double)NAN;
	if (t <= 0.0)
		return 0.0;
	if (isinf(t))
		return 1.0;
	double theta = atan(t / sqrt((double)df));
	double c = cos(theta), s = sin(theta), c2 = c * c;
	if (df % 2U == 1U) {
		/* 2/pi (theta + sin(theta) (cos + 2/3 cos^3 + (2*4)/(3*5) cos^5 + ...)),
		 * the series' last power being cos^(df-2) */
		double sum = 0.0, term = c;
		for (size_t k = 1; df >= 3U && k <= (df - 3U) / 2U + 1U; k++) {
			sum += term;
			term *= c2 * (double)(2U * k) / (double)(2U * k + 1U);
		}
		return 2.0 / STUDENT_PI * (theta + s * sum);
	}
	/* sin(theta) (1 + 1/2 cos^2 + (1*3)/(2*4) cos^4 + ...), last power cos^(df-2) */
	double sum = 0.0, term = 1.0;
	for (size_t k = 0; k <= (df - 2U) / 2U; k++) {
		sum += term;
		term *= c2 * (double)(2U * k + 1U) / (double)(2U * k + 2U);
	}
	return s * sum;
}

double br_stats_student_two_sided(double confidence, size_t df)
{
	if (!(confidence > 0.0 && confidence < 1.0) || df == 0)
		return (double)NAN;
	double lo = 0.0, hi = STUDENT_T_MAX;
	for (int i = 0; i < STUDENT_BISECT_STEPS && hi - lo > STUDENT_TOLERANCE * (1.0 + lo); i++) {
		double mid = 0.5 * (lo + hi);
		if (br_stats_student_central(mid, df) < confidence)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}
