package dev.lychee.api;

/**
 * When a record's statement holds or happened: the three fields the encoder writes, as text, and
 * the day span Lychee resolved from them.
 *
 * @param tRef the reference time of the statement (often the day an event happened); "" if none
 * @param tValidFrom start of validity; "" if none
 * @param tValidTo end of validity; "" if none
 * @param span the resolved day range; nullable when no field names a day, month or year
 * @param unparsed true when at least one non-empty field could not be read as a date; the raw
 *     text is kept in the field
 */
public record TemporalScope(String tRef, String tValidFrom, String tValidTo, DateRange span, boolean unparsed) {

  /** No temporal information. */
  public static final TemporalScope NONE = new TemporalScope("", "", "", null, false);

  public TemporalScope {
    tRef = Checks.orEmpty(tRef).strip();
    tValidFrom = Checks.orEmpty(tValidFrom).strip();
    tValidTo = Checks.orEmpty(tValidTo).strip();
  }

  /** True when no field is set and no span is known. */
  public boolean isEmpty() {
    return tRef.isEmpty() && tValidFrom.isEmpty() && tValidTo.isEmpty() && span == null;
  }
}
