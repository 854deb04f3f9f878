package dev.lychee.core.answer;

import dev.lychee.api.Candidate;
import dev.lychee.api.DateRange;
import dev.lychee.core.text.Terms;
import dev.lychee.core.time.DateMention;
import dev.lychee.core.time.Tense;
import dev.lychee.core.time.TemporalNormalizer;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts the span a question asks for out of the sentence that best supports it: a resolved date for
 * "when", a name for "who", a number with its noun for "how many", a place for "where", and for
 * anything else the words of the sentence that the question does not already hold. When no span of
 * the asked kind is found, the sentence itself is the answer.
 *
 * <p>Dates are written as the benchmark writes them ("7 May 2023", "May 2023", "2023"): a relative
 * date in the sentence is resolved against the day the words were said; a record's own temporal
 * scope is used when the sentence names no date; a sentence that tells of an event without a date
 * is answered with the day it was said.
 */
final class AnswerSpans {
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH);
  private static final Pattern SPEAKER = Pattern.compile("^\\s*([A-Z][\\w'.-]*(?: [A-Z][\\w'.-]*)?):\\s+");
  private static final Pattern NAME = Pattern.compile("\\b[A-Z][a-z]+(?:\\s+[A-Z][a-z]+)*\\b");
  private static final Pattern NUMBER = Pattern.compile(
      "\\b(\\d+(?:[.,]\\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
          + "|forty|fifty|hundred|a couple|a few|several|once|twice|three times|a dozen)\\b(\\s+[a-z]+){0,2}",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PLACE = Pattern.compile(
      "\\b(?:in|at|to|from|near|visited|around)\\s+((?:the\\s+)?[A-Z][\\w'-]*(?:\\s+(?:of\\s+)?[A-Z][\\w'-]*)*)");
  private static final Set<String> NOT_NAMES = Set.of("I", "I'm", "I've", "I'll", "I'd", "The", "A", "An", "It", "We",
      "My", "Our", "Your", "This", "That", "There", "They", "He", "She", "Yes", "No", "Oh", "Wow", "Thanks", "Thank",
      "Hey", "Hi", "Hello", "So", "But", "And", "Also", "Well", "Sure", "Great", "Awesome", "Cool", "What", "When",
      "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February", "March",
      "April", "May", "June", "July", "August", "September", "October", "November", "December", "Mentioned", "Date");
  /** At most this many words of a phrase answer. */
  private static final int PHRASE_WORDS = 10;

  private final TemporalNormalizer dates = new TemporalNormalizer();

  /** The answer span of {@code sentence}, taken from {@code source}, for a question of {@code form}. */
  String span(AnswerForm form, String question, String sentence, Candidate source) {
    String typed = typedSpan(form, question, sentence, source);
    return typed != null ? typed : SPEAKER.matcher(sentence).replaceFirst("").strip();
  }

  /**
   * The span of the asked kind, or null when the sentence holds none (for {@link AnswerForm#PHRASE}
   * every sentence has one). Dates count only when the sentence or the record names one.
   */
  String typedSpan(AnswerForm form, String question, String sentence, Candidate source) {
    String speaker = null;
    String body = sentence;
    Matcher sp = SPEAKER.matcher(sentence);
    if (sp.find()) {
      speaker = sp.group(1);
      body = sentence.substring(sp.end());
    }
    String span = switch (form) {
      case DATE -> date(body, source);
      case PERSON -> person(question, body, speaker);
      case QUANTITY -> first(NUMBER, body, 0);
      case PLACE -> place(question, body);
      case PHRASE -> phrase(question, body);
    };
    return span == null || span.isBlank() ? null : span.strip();
  }

  private String date(String body, Candidate source) {
    LocalDate said = source.mentionedAt() == null ? null : source.mentionedAt().toLocalDate();
    for (DateMention m : dates.find(body, said, Tense.of(body))) {
      if (m.dated()) {
        return write(m.range());
      }
    }
    if (source.temporal() != null && source.temporal().span() != null) {
      return write(source.temporal().span());
    }
    return said == null ? null : write(DateRange.day(said));
  }

  /** A range as the benchmark writes dates. */
  static String write(DateRange r) {
    String label = TemporalNormalizer.label(r);
    if (r.start().equals(r.end())) {
      return r.start().format(DAY);
    }
    if (label.length() == 7 && label.charAt(4) == '-') {
      YearMonth ym = YearMonth.parse(label);
      return ym.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + ym.getYear();
    }
    return label;
  }

  private static String person(String question, String body, String speaker) {
    Set<String> asked = Terms.tokens(question);
    Matcher m = NAME.matcher(body);
    while (m.find()) {
      String name = m.group();
      if (!NOT_NAMES.contains(name.split(" ")[0]) && !asked.contains(name.toLowerCase(Locale.ROOT))) {
        return name;
      }
    }
    return speaker != null && !asked.contains(speaker.toLowerCase(Locale.ROOT)) ? speaker : null;
  }

  private static String place(String question, String body) {
    Set<String> asked = Terms.tokens(question);
    Matcher m = PLACE.matcher(body);
    while (m.find()) {
      String place = m.group(1);
      if (!NOT_NAMES.contains(place.split(" ")[0]) && !asked.contains(place.toLowerCase(Locale.ROOT))) {
        return place;
      }
    }
    return null;
  }

  private static String first(Pattern p, String body, int group) {
    Matcher m = p.matcher(body);
    return m.find() ? m.group(group) : null;
  }

  /**
   * The shortest run of the sentence that holds its words the question lacks (at most
   * {@link #PHRASE_WORDS} words, from the first such word): the part that answers, without the
   * part that repeats the question.
   */
  private static String phrase(String question, String body) {
    Set<String> asked = Terms.content(question);
    String[] words = body.strip().split("\\s+");
    List<Integer> novel = new ArrayList<>();
    for (int i = 0; i < words.length; i++) {
      Set<String> t = Terms.content(words[i]);
      if (!t.isEmpty() && t.stream().noneMatch(asked::contains)) {
        novel.add(i);
      }
    }
    if (novel.isEmpty() || words.length <= PHRASE_WORDS) {
      return body.strip();
    }
    int from = novel.get(0);
    int to = from;
    for (int i : novel) {
      if (i - from < PHRASE_WORDS) {
        to = i;
      }
    }
    return String.join(" ", java.util.Arrays.copyOfRange(words, from, to + 1)).replaceAll("[,;:]$", "");
  }
}
