/* civil.h: proleptic Gregorian dates as day counts from 1970-01-01
 * (H. Hinnant's days_from_civil / civil_from_days), for Excel serials in
 * the formula engine, the cell formats and the readers. Pure integer math:
 * no time zone, no locale, no libc calendar. */
#ifndef QR_CIVIL_H
#define QR_CIVIL_H

/** Days from 1970-01-01 to y-m-d (m 1-12, d 1-31; negative before 1970). */
long long qr_days_from_civil(long long y, unsigned m, unsigned d);
/** The date of day z from 1970-01-01. */
void qr_civil_from_days(long long z, long long *y, unsigned *m, unsigned *d);

/* Day 0 of Excel's 1900 serials from serial 61 (1 March 1900) on:
 * qr_days_from_civil(1899, 12, 30). Serials 1-59 are one day later, as
 * Excel counts a 29 February 1900 (serial 60) that never was. */
#define QR_EXCEL_EPOCH (-25569LL)

#endif
