package dev.lychee.bench.locomo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cleans LoCoMo {@code evidence} strings exactly as evaluation.md §2.1 says: split every entry on
 * {@code [;,\s]+}, match {@code D:?(\d+):(\d+)} (which repairs {@code D:11:26}), read the numbers
 * as integers (which drops leading zeros, {@code D30:05 -> D30:5}) and keep only ids that name a
 * turn of the conversation.
 */
public final class EvidenceIds {
  private static final Pattern SPLIT = Pattern.compile("[;,\\s]+");
  private static final Pattern ID = Pattern.compile("D:?(\\d+):(\\d+)");

  private EvidenceIds() {}

  /**
   * The cleaned gold turns, in first-seen order without duplicates.
   *
   * @param raw the question's evidence entries as stored
   * @param existing every dia id of the conversation; ids outside it are dropped
   */
  public static List<DiaId> clean(Collection<String> raw, Set<DiaId> existing) {
    Set<DiaId> out = new LinkedHashSet<>();
    for (String entry : raw) {
      if (entry == null) {
        continue;
      }
      for (String piece : SPLIT.split(entry.trim())) {
        DiaId id = parse(piece);
        if (id != null && existing.contains(id)) {
          out.add(id);
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** Parses one piece; {@code null} when it is not an id (or names turn/session 0). */
  static DiaId parse(String piece) {
    Matcher m = ID.matcher(piece);
    if (!m.matches()) {
      return null;
    }
    try {
      int session = Integer.parseInt(m.group(1));
      int turn = Integer.parseInt(m.group(2));
      return session >= 1 && turn >= 1 ? new DiaId(session, turn) : null;
    } catch (NumberFormatException e) {
      return null; // more digits than an int holds: names no turn
    }
  }
}
