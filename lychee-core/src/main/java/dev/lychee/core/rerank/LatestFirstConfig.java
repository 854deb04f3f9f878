package dev.lychee.core.rerank;

import static dev.lychee.core.config.ConfigChecks.atLeast;
import static dev.lychee.core.config.ConfigChecks.unit;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of the latest-first rule ({@link LatestFirst}, docs/defaults.md §4.16): which questions
 * ask about the present, and which top candidates count as evidence about the same subject and
 * attribute, of which only the most recently said stays in front. Immutable.
 *
 * <p>A question asks about the present when it holds one of {@link #presentWords} (a word or a
 * phrase of words, matched on whole tokens), or, with {@link #presentTense} on, when its first
 * finite verb is one of {@link #presentVerbs} (English marks a question's tense on its first
 * auxiliary: "where does she work", "what is his rent", "when is she visiting") and it holds none
 * of {@link #pastWords} and no date filter was planned. A first finite verb among
 * {@link #otherVerbs} ("did", "was", "has", "would") makes it no present-tense question.
 *
 * <p>Defaults (ours): the rule is on ({@link #off()} switches it off). Issue 20.3 asks recall to
 * prefer the latest statement for a question about the present; on the LoCoMo dev half the rule
 * changes recall by at most a question either way (docs/defaults.md §4.16 has the measurement).
 */
public final class LatestFirstConfig {
  private static final String OWNER = "LatestFirstConfig";

  private final boolean enabled;
  private final Set<String> presentWords;
  private final boolean presentTense;
  private final Set<String> presentVerbs;
  private final Set<String> otherVerbs;
  private final Set<String> pastWords;
  private final int head;
  private final double scoreGap;

  private LatestFirstConfig(Builder b) {
    enabled = b.enabled;
    presentWords = words("presentWords", b.presentWords);
    presentTense = b.presentTense;
    presentVerbs = words("presentVerbs", b.presentVerbs);
    otherVerbs = words("otherVerbs", b.otherVerbs);
    pastWords = words("pastWords", b.pastWords);
    head = atLeast(OWNER, "head", b.head, 2);
    scoreGap = unit(OWNER, "scoreGap", b.scoreGap);
  }

  /** Lower-cased, blank-free, whitespace folded to one space; order kept. */
  private static Set<String> words(String name, Set<String> in) {
    Objects.requireNonNull(in, name);
    Set<String> out = new LinkedHashSet<>();
    for (String w : in) {
      Objects.requireNonNull(w, name + " holds null");
      String s = w.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
      if (s.isEmpty()) {
        throw new IllegalArgumentException(OWNER + ": " + name + " holds a blank word");
      }
      out.add(s);
    }
    return Set.copyOf(out);
  }

  public static LatestFirstConfig defaults() {
    return builder().build();
  }

  /** The default settings, the rule switched on (as it is by default). */
  public static LatestFirstConfig on() {
    return builder().enabled(true).build();
  }

  /** The rule switched off: recall ranks as if it did not exist. */
  public static LatestFirstConfig off() {
    return builder().enabled(false).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings. */
  public Builder toBuilder() {
    return new Builder().enabled(enabled).presentWords(presentWords).presentTense(presentTense)
        .presentVerbs(presentVerbs).otherVerbs(otherVerbs).pastWords(pastWords).head(head).scoreGap(scoreGap);
  }

  /** Whether the rule runs at all. */
  public boolean enabled() {
    return enabled;
  }

  /** Words and phrases that make any question one about the present ("now", "still", "these days"). */
  public Set<String> presentWords() {
    return presentWords;
  }

  /** Whether a question whose first finite verb is present tense asks about the present. */
  public boolean presentTense() {
    return presentTense;
  }

  /** Finite verbs of a present-tense question ("is", "does", "will": a plan's current state). */
  public Set<String> presentVerbs() {
    return presentVerbs;
  }

  /** Finite verbs that, coming first, make a question no present-tense one ("did", "was", "has"). */
  public Set<String> otherVerbs() {
    return otherVerbs;
  }

  /** Words and phrases that turn the present-tense reading off ("before", "originally", "used to"). */
  public Set<String> pastWords() {
    return pastWords;
  }

  /** How many of the reranked candidates, from the top, the rule looks at (at least 2). */
  public int head() {
    return head;
  }

  /** How far below the top candidate about the subject another may score and still join its group. */
  public double scoreGap() {
    return scoreGap;
  }

  @Override
  public String toString() {
    return "LatestFirstConfig[enabled=" + enabled + ", presentWords=" + presentWords.size() + ", presentTense="
        + presentTense + ", head=" + head + ", scoreGap=" + scoreGap + "]";
  }

  /** Builder; every value starts at its default. */
  public static final class Builder {
    private boolean enabled = true;
    private Set<String> presentWords = Set.of("now", "right now", "currently", "current", "still", "latest",
        "most recent", "most recently", "nowadays", "these days", "anymore", "any more", "at the moment",
        "at present", "presently");
    private boolean presentTense = true;
    private Set<String> presentVerbs = Set.of("is", "are", "am", "does", "do", "will");
    private Set<String> otherVerbs = Set.of("was", "were", "did", "had", "has", "have", "would", "could", "should",
        "might", "used");
    private Set<String> pastWords = Set.of("before", "previously", "originally", "initially", "formerly",
        "earlier", "ago", "former", "previous", "used to", "at first", "back then", "in the past", "at the time",
        "until", "first", "last");
    private int head = 20;
    private double scoreGap = .30;

    private Builder() {}

    public Builder enabled(boolean v) {
      enabled = v;
      return this;
    }

    /** Replaces the present words. */
    public Builder presentWords(Set<String> v) {
      presentWords = v;
      return this;
    }

    public Builder presentTense(boolean v) {
      presentTense = v;
      return this;
    }

    /** Replaces the present-tense finite verbs. */
    public Builder presentVerbs(Set<String> v) {
      presentVerbs = v;
      return this;
    }

    /** Replaces the finite verbs that end the present-tense reading. */
    public Builder otherVerbs(Set<String> v) {
      otherVerbs = v;
      return this;
    }

    /** Replaces the past words. */
    public Builder pastWords(Set<String> v) {
      pastWords = v;
      return this;
    }

    public Builder head(int v) {
      head = v;
      return this;
    }

    public Builder scoreGap(double v) {
      scoreGap = v;
      return this;
    }

    public LatestFirstConfig build() {
      return new LatestFirstConfig(this);
    }
  }
}
