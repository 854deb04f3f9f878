package dev.lychee.bench.qa;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.Answer;
import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.DateRange;
import dev.lychee.api.Evidence;
import dev.lychee.api.Question;
import dev.lychee.api.RecallPlan;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.spi.Embedder;
import dev.lychee.bench.harness.Progress;
import dev.lychee.bench.metrics.AnswerText;
import dev.lychee.bench.systems.EvalSession;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.answer.ExtractiveAnswerGenerator;
import dev.lychee.core.answer.LlmAnswerGenerator;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Error analysis of the offline answerer. Recall is slow (every conversation is ingested and every
 * question recalled), the answerer is fast: {@link #saveEvidence} runs recall once, as
 * {@code eval locomo --llm offline} does, and saves each question's evidence; {@link #replay}
 * answers every saved question again with the answerer of the current tree in seconds and scores
 * it with the benchmark's token F1. Each question's outcome names the sentence the answer was cut
 * from and the evidence sentence with the best F1, so a wrong answer shows whether the sentence
 * or the span was chosen wrong. A replay of the tree that saved the evidence gives the same F1 as
 * its {@code eval locomo --llm offline} run.
 */
public final class AnswerReplay {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One evidence item as saved: what the offline answerer reads of a candidate.
   *
   * @param rank its rank in the evidence
   * @param score its final score
   * @param id the candidate id
   * @param kind record, raw turn or window
   * @param text the text shown to the answerer
   * @param session its session
   * @param mentionedAt when its words were said (ISO date-time); nullable
   * @param tRef the record's temporal reference as written; nullable
   * @param spanStart the first day of its temporal span (ISO date); nullable
   * @param spanEnd the last day of its temporal span (ISO date); nullable
   * @param role whose words these are
   * @param entities the record's entities
   * @param tags the record's tags
   */
  public record SavedItem(int rank, double score, String id, CandidateKind kind, String text, String session,
      String mentionedAt, String tRef, String spanStart, String spanEnd, SourceRole role,
      List<String> entities, List<String> tags) {

    static SavedItem of(Evidence e) {
      Candidate c = e.candidate();
      DateRange span = c.temporal().span();
      return new SavedItem(e.rank(), e.score(), c.id(), c.kind(), c.text(), c.session(), iso(c.mentionedAt()),
          c.temporal().tRef(), span == null ? null : iso(span.start()), span == null ? null : iso(span.end()),
          c.sourceRole(), c.entities(), c.tags());
    }

    Evidence evidence(String namespace) {
      DateRange span = spanStart == null && spanEnd == null ? null
          : new DateRange(spanStart == null ? null : LocalDate.parse(spanStart), spanEnd == null ? null : LocalDate.parse(spanEnd));
      TemporalScope scope = new TemporalScope(tRef == null ? "" : tRef, "", "", span, false);
      Candidate c = new Candidate(id, kind, namespace, text, session, List.of(),
          mentionedAt == null ? null : LocalDateTime.parse(mentionedAt), scope, null, role,
          entities == null ? List.of() : entities, tags == null ? List.of() : tags, score, 0, null);
      return new Evidence(rank, score, c);
    }
  }

  /**
   * One question with the evidence recall gave it.
   *
   * @param conversation the conversation (namespace) id
   * @param index the question's position in its conversation
   * @param category LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)
   * @param question the question
   * @param gold the reference answer
   * @param askedAt when the question is asked (ISO date-time); nullable
   * @param evidence the evidence, best first
   */
  public record SavedQuestion(String conversation, int index, int category, String question, String gold,
      String askedAt, List<SavedItem> evidence) {}

  private static String iso(Object temporal) {
    return temporal == null ? null : temporal.toString();
  }

  /**
   * One replayed question.
   *
   * @param conversation the conversation id
   * @param index the question's position in its conversation
   * @param category LoCoMo category
   * @param question the question
   * @param gold the reference answer
   * @param answer the answer
   * @param f1 the answer's token F1 against the reference
   * @param exactMatch 1 when the normalised answer equals the normalised reference
   * @param abstained the answer says memory holds no answer
   * @param chosen the sentence the answer was cut from (null when it abstained)
   * @param chosenRank the evidence rank of that sentence's item (0 when it abstained)
   * @param chosenSupport that sentence's support for the question
   * @param best the evidence sentence with the highest token F1 against the reference
   * @param bestF1 that sentence's F1 (the upper bound of a sentence picker)
   * @param bestSpan the run of up to {@link #SPAN_TOKENS} normalised tokens of any evidence sentence with
   *     the highest F1 (the upper bound of a span cutter that may pick any sentence)
   * @param bestSpanF1 that run's F1
   * @param chosenSpanF1 the F1 of the best run of up to {@link #SPAN_TOKENS} tokens of the chosen sentence
   *     (the upper bound of cutting the span better from the sentence the answerer chose)
   */
  public record Outcome(String conversation, int index, int category, String question, String gold, String answer,
      double f1, double exactMatch, boolean abstained, String chosen, int chosenRank, double chosenSupport,
      String best, double bestF1, String bestSpan, double bestSpanF1, double chosenSpanF1) {}

  /** The longest span, in normalised tokens, the span bounds consider. */
  public static final int SPAN_TOKENS = 6;

  /**
   * Mean F1, EM, abstention, best-sentence F1 and the two span bounds (best span of any sentence,
   * best span of the chosen sentence) of a group of outcomes.
   */
  public record Summary(int questions, double f1, double exactMatch, double abstention, double bestF1,
      double bestSpanF1, double chosenSpanF1) {
    static Summary of(List<Outcome> o) {
      int n = o.size();
      return new Summary(n, mean(o, Outcome::f1), mean(o, Outcome::exactMatch), mean(o, x -> x.abstained() ? 1.0 : 0.0),
          mean(o, Outcome::bestF1), mean(o, Outcome::bestSpanF1), mean(o, Outcome::chosenSpanF1));
    }

    private static double mean(List<Outcome> o, java.util.function.ToDoubleFunction<Outcome> f) {
      return o.isEmpty() ? Double.NaN : o.stream().mapToDouble(f).sum() / o.size();
    }
  }

  private AnswerReplay() {}

  /**
   * Builds each case's memory offline, recalls every question's evidence ({@code k} items, as the
   * offline QA run does) and writes one {@link SavedQuestion} per line to {@code out}.
   *
   * @param configs the Lychee configuration of a recall-harness system name ({@code lychee})
   */
  public static void saveEvidence(List<QaCase> cases, Embedder embedder, Function<String, LycheeConfig> configs, int k,
      Path out, Progress progress) throws IOException {
    QaRunner runner = new QaRunner(QaModels.offline(), embedder, configs, k, 1, null, progress);
    LycheeConfig config = runner.configFor(QaVariant.parse("lychee").get(0), true);
    try (BufferedWriter w = Files.newBufferedWriter(out)) {
      for (QaCase c : cases) {
        try (Lychee lychee = Lychee.builder().embedder(embedder).config(config).build()) {
          for (EvalSession s : c.sessions()) {
            lychee.append(c.id(), s.id(), s.date(), s.turns());
            lychee.flush(c.id(), s.id());
          }
          for (QaCase.Item q : c.questions()) {
            Answer a = lychee.answer(new Question(c.id(), q.question(), k, q.askedAt()));
            List<SavedItem> items = a.evidence().stream().sorted(Comparator.comparingInt(Evidence::rank))
                .map(SavedItem::of).toList();
            w.write(JSON.writeValueAsString(new SavedQuestion(c.id(), q.index(), q.category(), q.question(), q.gold(),
                iso(q.askedAt()), items)));
            w.newLine();
          }
        }
        progress.log("evidence saved: " + c.id());
      }
    }
  }

  /** Reads the questions {@link #saveEvidence} wrote. */
  public static List<SavedQuestion> load(Path file) throws IOException {
    List<SavedQuestion> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.isBlank()) {
        out.add(JSON.readValue(line, SavedQuestion.class));
      }
    }
    return out;
  }

  /** Answers every saved question with {@code answerer} and scores it. */
  public static List<Outcome> replay(List<SavedQuestion> questions, ExtractiveAnswerGenerator answerer) {
    List<Outcome> out = new ArrayList<>(questions.size());
    for (SavedQuestion q : questions) {
      List<Evidence> evidence = q.evidence().stream().map(e -> e.evidence(q.conversation())).toList();
      Question question = new Question(q.conversation(), q.question(), Math.max(1, evidence.size()),
          q.askedAt() == null ? null : LocalDateTime.parse(q.askedAt()));
      ExtractiveAnswerGenerator.Explained x = answerer.explain(question, RecallPlan.singleRoute(q.question()), evidence);
      String text = x.answer().text();
      String best = "";
      double bestF1 = 0;
      String bestSpan = "";
      double bestSpanF1 = 0;
      for (Evidence e : evidence) {
        for (String s : QaRunner.sentences(e.candidate().text())) {
          double f = AnswerText.f1(s, q.gold());
          if (f > bestF1) {
            bestF1 = f;
            best = s;
          }
          Span span = bestSpan(s, q.gold());
          if (span.f1() > bestSpanF1) {
            bestSpanF1 = span.f1();
            bestSpan = span.text();
          }
        }
      }
      double chosenSpanF1 = x.sentence() == null ? 0 : bestSpan(x.sentence(), q.gold()).f1();
      out.add(new Outcome(q.conversation(), q.index(), q.category(), q.question(), q.gold(), text,
          AnswerText.f1(text, q.gold()), AnswerText.exactMatch(text, q.gold()),
          text.equals(LlmAnswerGenerator.NOT_AVAILABLE), x.sentence(), x.rank(), x.support(), best, bestF1,
          bestSpan, bestSpanF1, chosenSpanF1));
    }
    return out;
  }

  /** A run of normalised tokens with its F1 against a reference. */
  record Span(String text, double f1) {}

  /**
   * The run of up to {@link #SPAN_TOKENS} consecutive normalised tokens of {@code sentence} with the
   * highest token F1 against {@code gold}: what a perfect span cutter could answer from it.
   */
  static Span bestSpan(String sentence, String gold) {
    List<String> t = AnswerText.tokens(sentence);
    Span best = new Span("", 0);
    for (int from = 0; from < t.size(); from++) {
      for (int to = from + 1; to <= Math.min(t.size(), from + SPAN_TOKENS); to++) {
        String run = String.join(" ", t.subList(from, to));
        double f = AnswerText.f1(run, gold);
        if (f > best.f1()) {
          best = new Span(run, f);
        }
      }
    }
    return best;
  }

  /** Summaries over all outcomes (key "all") and per category ("1" to "4"). */
  public static Map<String, Summary> summarize(List<Outcome> outcomes) {
    Map<String, Summary> out = new TreeMap<>();
    out.put("all", Summary.of(outcomes));
    Map<Integer, List<Outcome>> byCategory = new TreeMap<>();
    for (Outcome o : outcomes) {
      byCategory.computeIfAbsent(o.category(), c -> new ArrayList<>()).add(o);
    }
    byCategory.forEach((c, list) -> out.put(String.valueOf(c), Summary.of(list)));
    return out;
  }

  /**
   * The summaries as a plain-text table: "best" is the best-sentence bound, "span" the best span of up
   * to {@link #SPAN_TOKENS} tokens of any evidence sentence, "cspan" the best such span of the chosen
   * sentence.
   */
  public static String table(Map<String, Summary> summaries) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-8s %5s %6s %6s %6s %6s %6s %6s%n",
        "group", "n", "F1", "EM", "abst", "best", "span", "cspan"));
    summaries.forEach((g, s) -> b.append(String.format(Locale.ROOT, "%-8s %5d %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f%n",
        g, s.questions(), s.f1(), s.exactMatch(), s.abstention(), s.bestF1(), s.bestSpanF1(), s.chosenSpanF1())));
    return b.toString();
  }

  /** Writes one {@link Outcome} per line, as JSON. */
  public static void writeOutcomes(List<Outcome> outcomes, Path out) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(out)) {
      for (Outcome o : outcomes) {
        w.write(JSON.writeValueAsString(o));
        w.newLine();
      }
    }
  }

  /**
   * Writes one {@link Outcome} per line as tab-separated columns (conversation, index, category,
   * F1, best F1, best-span F1, chosen-span F1, question, gold, answer, chosen sentence, best sentence,
   * best span), for grep and sort.
   */
  public static void writeTable(List<Outcome> outcomes, Path out) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(out)) {
      w.write("conversation\tindex\tcategory\tf1\tbest_f1\tspan_f1\tchosen_span_f1\tquestion\tgold\tanswer\tchosen"
          + "\tbest\tbest_span");
      w.newLine();
      for (Outcome o : outcomes) {
        w.write(String.join("\t", o.conversation(), String.valueOf(o.index()), String.valueOf(o.category()),
            String.format(Locale.ROOT, "%.2f", o.f1()), String.format(Locale.ROOT, "%.2f", o.bestF1()),
            String.format(Locale.ROOT, "%.2f", o.bestSpanF1()), String.format(Locale.ROOT, "%.2f", o.chosenSpanF1()),
            clean(o.question()), clean(o.gold()), clean(o.answer()), clean(o.chosen()), clean(o.best()),
            clean(o.bestSpan())));
        w.newLine();
      }
    }
  }

  private static String clean(String s) {
    return s == null ? "" : s.replaceAll("[\\t\\n\\r]+", " ");
  }

  /** Reads outcomes that {@link #writeOutcomes} wrote (to compare two trees' answers). */
  public static List<Outcome> loadOutcomes(Path file) {
    try {
      List<Outcome> out = new ArrayList<>();
      for (String line : Files.readAllLines(file)) {
        if (!line.isBlank()) {
          out.add(JSON.readValue(line, Outcome.class));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Questions whose F1 differs between two replays of the same evidence, as "before -> after" lines. */
  public static List<String> changes(List<Outcome> before, List<Outcome> after) {
    Objects.requireNonNull(before, "before");
    Map<String, Outcome> old = new TreeMap<>();
    for (Outcome o : before) {
      old.put(o.conversation() + "#" + o.index(), o);
    }
    List<String> out = new ArrayList<>();
    for (Outcome o : after) {
      Outcome b = old.get(o.conversation() + "#" + o.index());
      if (b != null && Math.abs(b.f1() - o.f1()) > 1e-9) {
        out.add(String.format(Locale.ROOT, "%s %+.2f c%d %s | gold: %s | %s -> %s", o.f1() > b.f1() ? "better" : "worse",
            o.f1() - b.f1(), o.category(), o.question(), o.gold(), b.answer(), o.answer()));
      }
    }
    return out;
  }
}
