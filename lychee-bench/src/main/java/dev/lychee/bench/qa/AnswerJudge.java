package dev.lychee.bench.qa;

import dev.lychee.api.ChatMessage;
import dev.lychee.api.ChatRequest;
import dev.lychee.api.ChatResult;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.ChatModel;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grades a generated answer against the reference answer with one LLM call at temperature 0: a
 * binary verdict, lenient about wording and format (a date written another way, a longer answer
 * that contains the reference) and strict about substance, as the benchmark's judging protocol asks.
 *
 * <p>Three grading rules exist beside the default: {@link Rule#ABSTENTION} (the question has no
 * answer in the conversation: right only when the answer says the information is not known),
 * {@link Rule#TEMPORAL} (off-by-one day or count allowed), {@link Rule#LATEST} (the answer must
 * give the most recent value) and {@link Rule#PREFERENCE} (the reference describes what a good
 * answer takes into account). LongMemEval chooses the rule per question type.
 */
public final class AnswerJudge {
  /** How to grade. */
  public enum Rule { DEFAULT, ABSTENTION, TEMPORAL, LATEST, PREFERENCE }

  static final String SYSTEM = """
      You grade one answer to a question about a past conversation. You get the question, the \
      reference answer written by a person who read the conversation, and the answer to grade.

      Grade CORRECT when the graded answer says what the reference says. Wording, length, order \
      and format do not matter: a date written differently, a relative date that names the same \
      day, or an answer that adds detail while still containing the reference all count. Grade \
      WRONG when it contradicts the reference, names another person, thing, date or number, leaves \
      out part of a reference that asks for several items, or only says the information is missing.
      %s
      Reply with one JSON object and nothing else: {"verdict": "CORRECT"} or {"verdict": "WRONG"}.
      """;

  private static final Pattern VERDICT = Pattern.compile("\\b(CORRECT|WRONG)\\b");
  private final ChatModel model;

  public AnswerJudge(ChatModel model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  /**
   * One verdict.
   *
   * @param correct whether the answer was graded correct
   * @param usage the judge call's tokens
   * @param parsed false when the judge's reply held no verdict (then graded wrong)
   */
  public record Verdict(boolean correct, TokenUsage usage, boolean parsed) {
    /** No judge ran (offline runs report lexical scores only). */
    public static final Verdict NONE = new Verdict(false, TokenUsage.ZERO, false);
  }

  /** Grades {@code answer} against {@code reference} for {@code question} under {@code rule}. */
  public Verdict judge(String question, String reference, String answer, Rule rule) {
    ChatRequest request = new ChatRequest(List.of(
        ChatMessage.system(SYSTEM.formatted(extra(rule))),
        ChatMessage.user("Question: " + question.strip() + "\nReference answer: " + reference.strip()
            + "\nAnswer to grade: " + answer.strip())), 0.0, 0, true);
    ChatResult r = model.chat(request);
    Matcher m = VERDICT.matcher(r.text().toUpperCase(Locale.ROOT));
    if (!m.find()) {
      return new Verdict(false, r.usage(), false);
    }
    return new Verdict(m.group(1).equals("CORRECT"), r.usage(), true);
  }

  private static String extra(Rule rule) {
    return switch (rule) {
      case DEFAULT -> "";
      case ABSTENTION -> "\nThis question cannot be answered from the conversation. Grade CORRECT only when "
          + "the answer says the information is not available or unknown; grade WRONG for any answer that "
          + "gives a value.\n";
      case TEMPORAL -> "\nFor a number of days, weeks or months, or a count of events, an answer that is off by "
          + "one from the reference still counts as CORRECT.\n";
      case LATEST -> "\nThe information changed over time and the reference is its latest value. An answer that "
          + "also mentions earlier values is CORRECT as long as it gives the latest one as current.\n";
      case PREFERENCE -> "\nThe reference describes what a good answer takes into account (the person's tastes, "
          + "limits and history). Grade CORRECT when the answer uses that personal information correctly; "
          + "it need not cover every point.\n";
    };
  }
}
