package dev.lychee.bench.qa;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One configuration of an LLM-judged run, as the paper's construction and retrieval ablations
 * vary it.
 *
 * @param name the name on the command line and in the report
 * @param segmenter {@code semantic}, {@code fixed} or {@code turn} (per-turn construction)
 * @param summaries one summary record per segment instead of typed records
 * @param referenceContext whether the encoder sees the previous segment's note and records
 * @param retrieval the lychee system of the recall harness whose retrieval this variant uses
 *     ({@code lychee} or one of its retrieval ablations)
 */
public record QaVariant(String name, String segmenter, boolean summaries, boolean referenceContext, String retrieval) {
  private static final Map<String, QaVariant> KNOWN = new LinkedHashMap<>();

  static {
    add(new QaVariant("lychee", "semantic", false, true, "lychee"));
    add(new QaVariant("fixed", "fixed", false, true, "lychee"));
    add(new QaVariant("per-turn", "turn", false, true, "lychee"));
    add(new QaVariant("summary", "semantic", true, true, "lychee"));
    add(new QaVariant("no-reference", "semantic", false, false, "lychee"));
    add(new QaVariant("record-only", "semantic", false, true, "lychee-record-only"));
    add(new QaVariant("no-planner", "semantic", false, true, "lychee-no-planner"));
    add(new QaVariant("no-fusion", "semantic", false, true, "lychee-no-fusion"));
    add(new QaVariant("no-raw", "semantic", false, true, "lychee-no-raw"));
  }

  private static void add(QaVariant v) {
    KNOWN.put(v.name, v);
  }

  public QaVariant {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(segmenter, "segmenter");
    Objects.requireNonNull(retrieval, "retrieval");
  }

  /** The variants by name, in the order the report lists them. */
  public static List<String> names() {
    return List.copyOf(KNOWN.keySet());
  }

  /** Parses a comma-separated list of variant names. */
  public static List<QaVariant> parse(String csv) {
    List<QaVariant> out = new ArrayList<>();
    for (String part : csv.split(",")) {
      String n = part.strip().toLowerCase(Locale.ROOT);
      if (n.isEmpty()) {
        continue;
      }
      QaVariant v = KNOWN.get(n);
      if (v == null) {
        throw new IllegalArgumentException("unknown variant '" + part.strip() + "'; known: " + String.join(", ", KNOWN.keySet()));
      }
      if (!out.contains(v)) {
        out.add(v);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no variant named (known: " + String.join(", ", KNOWN.keySet()) + ")");
    }
    return out;
  }
}
