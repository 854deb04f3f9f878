package dev.lychee.core.rerank;

import dev.lychee.api.Candidate;
import dev.lychee.api.DateRange;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.api.spi.Reranker;
import dev.lychee.core.score.Scores;
import dev.lychee.core.score.TemporalMatch;
import dev.lychee.core.text.TermFinder;
import dev.lychee.core.text.Terms;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A non-generative reranker: a weighted mean of the fused score, the query–evidence embedding
 * similarity, the share of the plan's query terms the evidence contains (each term weighted by
 * its rarity in the candidate pool), whether the evidence is
 * about a person the question names, and whether it matches the plan's date filter. Weights come
 * from {@link RerankWeights}. It never drops a candidate. Last, when the question asks about the
 * present, {@link LatestFirst} puts the latest of the leading evidence about the same subject and
 * attribute first when its settings ({@link LatestFirstConfig}, off by default) switch it on.
 */
public final class FeatureReranker implements Reranker {
  private static final Pattern NAME = Pattern.compile("\\b\\p{Lu}[\\p{L}'-]+");
  /** Compiled once: {@code String.replaceAll} compiles its pattern on every call. */
  private static final Pattern POSSESSIVE_END = Pattern.compile("'s$");

  private final RerankWeights w;
  private final LatestFirst latestFirst;

  /** The reranker with the default latest-first settings (off). */
  public FeatureReranker(RerankWeights weights) {
    this(weights, LatestFirstConfig.defaults());
  }

  @Inject
  public FeatureReranker(RerankWeights weights, LatestFirstConfig latestFirst) {
    this.w = weights;
    this.latestFirst = new LatestFirst(latestFirst);
  }

  @Override
  public List<Candidate> rerank(List<Candidate> candidates, RecallContext context) {
    try {
      Set<String> queryTerms = new LinkedHashSet<>(Terms.content(context.question().text()));
      for (RecallRoute r : context.plan().routes()) {
        r.queries().forEach(q -> queryTerms.addAll(Terms.content(q)));
      }
      Set<String> names = namedPeople(context.question().text());
      // names are scored by the speaker feature; as query terms they would match every turn of that speaker
      names.forEach(n -> queryTerms.remove(Terms.stem(n)));
      // "now", "currently": they date the question, they are not its topic
      queryTerms.removeAll(latestFirst.tenseTerms(context.question().text()));
      DateRange filter = context.plan().temporalFilter();
      double sum = w.fused() + w.similarity() + w.lexical() + w.speaker() + w.temporal();
      // one scan of each text finds what both text features need, without a string per token:
      // the pool can hold thousands of texts (issue 21)
      TermFinder finder = TermFinder.of(queryTerms, names);
      List<TermFinder.Found> matches = new ArrayList<>(candidates.size());
      String[] lowered = new String[candidates.size()];
      for (int i = 0; i < lowered.length; i++) {
        String text = candidates.get(i).text();
        lowered[i] = text == null ? null : text.toLowerCase(Locale.ROOT);
        matches.add(finder.findInLowerCase(lowered[i]));
      }
      double[] weights = poolIdf(finder.terms(), matches);
      // asked once per pool, not once per candidate: the answer depends on the names alone
      boolean namesAreWords = allWords(names);
      List<Candidate> out = new ArrayList<>(candidates.size());
      for (int i = 0; i < candidates.size(); i++) {
        Candidate c = candidates.get(i);
        double lexical = overlap(weights, matches.get(i).terms());
        double speaker = speaker(names, namesAreWords, c, matches.get(i).word(), lowered[i]);
        double temporal = TemporalMatch.of(c, filter) == TemporalMatch.Kind.NONE ? 0 : 1;
        double s = w.fused() * c.score()
            + w.similarity() * c.similarity()
            + w.lexical() * lexical
            + w.speaker() * speaker
            + w.temporal() * temporal;
        Candidate scored = c.withScore(Scores.clamp(s / sum));
        // only for an observer that looks at them: a map and five boxes per candidate of a pool of
        // hundreds to thousands (round twenty-three, docs/measurements.md §6)
        if (context.observer().wantsFeatures()) {
          context.observer().features(c, Map.of("fused", c.score(), "similarity", c.similarity(), "lexical", lexical,
              "speaker", speaker, "temporal", temporal), scored.score());
        }
        out.add(scored);
      }
      out.sort(Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Candidate::id));
      return latestFirst.apply(out, context);
    } catch (RuntimeException e) {
      return candidates; // the contract: an internal failure leaves the order as it was
    }
  }

  /**
   * Weighted share of the query terms a text holds: {@code weights} in query-term order,
   * {@code found} the terms the text holds.
   */
  static double overlap(double[] weights, BitSet found) {
    double all = 0;
    double hit = 0;
    for (int i = 0; i < weights.length; i++) {
      all += weights[i];
      if (found.get(i)) {
        hit += weights[i];
      }
    }
    return all > 0 ? hit / all : 0;
  }

  /**
   * Query-term weights from the candidate pool itself: {@code log(1 + n / (1 + df))}, where df is
   * how many candidates contain the term. A term that nearly every candidate shares (the topic
   * word that brought them all in) separates them less than a rare one, and the pool is the only
   * corpus a reranker sees.
   */
  static double[] poolIdf(int terms, List<TermFinder.Found> texts) {
    double[] out = new double[terms];
    int n = texts.size();
    for (int q = 0; q < terms; q++) {
      int df = 0;
      for (TermFinder.Found t : texts) {
        if (t.terms().get(q)) {
          df++;
        }
      }
      out[q] = Math.log(1 + (double) n / (1 + df));
    }
    return out;
  }

  /** Whether every name is one whole word (true for none). */
  private static boolean allWords(Set<String> names) {
    for (String n : names) {
      if (!Terms.isWord(n)) {
        return false;
      }
    }
    return true;
  }

  /** Capitalised words of the question that are not sentence-initial function words. */
  static Set<String> namedPeople(String question) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = NAME.matcher(question);
    while (m.find()) {
      String n = m.group().toLowerCase(Locale.ROOT);
      if (!Terms.STOP.contains(n) && !n.equals("i")) {
        out.add(POSSESSIVE_END.matcher(n).replaceAll(""));
      }
    }
    return out;
  }

  /**
   * How directly the evidence is about a person the question names: 1 when that person speaks it
   * (a {@code "<name>:"} line) or a record lists them as entity, 0.5 when it only mentions them,
   * else 0 (also 0 when the question names nobody).
   */
  static double speaker(Set<String> names, Candidate c) {
    return speaker(names, c, TermFinder.of(Set.of(), names).find(c.text()).word(), null);
  }

  /**
   * The same, knowing already whether one of the names is among the text's {@link Terms#tokens},
   * and given the text lower-cased ({@code null}: lower-case it here).
   */
  static double speaker(Set<String> names, Candidate c, boolean holdsAName, String lowered) {
    return speaker(names, allWords(names), c, holdsAName, lowered);
  }

  /**
   * The same, told whether every name is one whole {@link Terms#isWord word}. Plain loops, no
   * streams and no token set per entity: this runs for every candidate of a pool of hundreds to
   * thousands, and its per-candidate streams and sets were a third of the reranker's allocation
   * (docs/measurements.md §6, round seventeen).
   */
  private static double speaker(Set<String> names, boolean namesAreWords, Candidate c, boolean holdsAName,
      String lowered) {
    if (names.isEmpty()) {
      return 0;
    }
    for (String e : c.entities()) {
      String entity = e.toLowerCase(Locale.ROOT);
      for (String n : names) {
        if (Terms.isTokenOfLowerCase(entity, n)) {
          return 1;
        }
      }
    }
    // a name made of word characters that starts a line is one of the text's tokens: a text holding
    // none of the names can have no such line (names with an apostrophe or hyphen are looked for)
    if (!holdsAName && namesAreWords) {
      return 0;
    }
    // each line's start, without splitting the text into lines (a name holds no line break)
    String text = lowered != null ? lowered : c.text().toLowerCase(Locale.ROOT);
    int start = 0;
    while (true) {
      for (String n : names) {
        if (text.startsWith(n, start) && text.startsWith(":", start + n.length())) {
          return 1;
        }
      }
      int next = text.indexOf('\n', start);
      if (next < 0) {
        break;
      }
      start = next + 1;
    }
    return holdsAName ? 0.5 : 0;
  }
}
