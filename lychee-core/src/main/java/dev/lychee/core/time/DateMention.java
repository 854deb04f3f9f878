package dev.lychee.core.time;

import dev.lychee.api.DateRange;

/**
 * A date expression found in a text.
 *
 * @param start offset of the first character in the scanned text
 * @param end offset after the last character
 * @param text the expression as written
 * @param range the days it denotes; null for recognised expressions that name no date ("recently")
 * @param absolute true when the expression names its own year ("8 May, 2023"), so rewriting it with
 *     a resolved date adds nothing
 */
public record DateMention(int start, int end, String text, DateRange range, boolean absolute) {

  /** True when the expression resolved to days. */
  public boolean dated() {
    return range != null;
  }
}
