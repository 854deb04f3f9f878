package dev.lychee.core.encode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Entity and tag extraction by rule for the offline encoder. */
final class Keywords {
  private Keywords() {}

  private static final Pattern WORD = Pattern.compile("[A-Za-z][A-Za-z'’-]*");
  private static final Pattern CAPITALISED = Pattern.compile(
      "\\b[A-Z][\\w'’&-]*(?:(?:\\s+(?:of|the|de|for))*\\s+[A-Z][\\w'’&-]*)*");
  private static final Pattern PARENTHESES = Pattern.compile("\\([^)]*\\)");

  /** Words of a text, lower-cased, apostrophes normalised, possessive 's removed. */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = WORD.matcher(text);
    while (m.find()) {
      String w = m.group().toLowerCase(Locale.ROOT).replace('’', '\'');
      if (w.endsWith("'s")) {
        w = w.substring(0, w.length() - 2);
      }
      w = w.replaceAll("^-+|-+$", "");
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  /** Words that carry content: not stop words, chit-chat, calendar words or the given names. */
  static List<String> contentWords(String text, Collection<String> names) {
    Set<String> nameWords = new LinkedHashSet<>();
    names.forEach(n -> nameWords.addAll(words(n)));
    List<String> out = new ArrayList<>();
    for (String w : words(text)) {
      if (w.length() < 2 || OfflineLexicon.STOP_WORDS.contains(w) || OfflineLexicon.CHIT_CHAT.contains(w)
          || OfflineLexicon.CALENDAR_WORDS.contains(w) || nameWords.contains(w)) {
        continue;
      }
      out.add(w);
    }
    return out;
  }

  /**
   * Named entities: capitalised spans (joined across "of", "the", "and"), possessive endings removed;
   * a one-word span opening the sentence counts only when it is a known name; calendar words, "I"
   * and stop words are not entities. Known names that appear in the text come first.
   */
  static List<String> entities(String text, Collection<String> knownNames) {
    String plain = PARENTHESES.matcher(text).replaceAll(" ");
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String name : knownNames) {
      if (name != null && Pattern.compile("\\b" + Pattern.quote(name) + "\\b").matcher(plain).find()) {
        out.add(name);
      }
    }
    Matcher m = CAPITALISED.matcher(plain);
    while (m.find()) {
      String span = trimSpan(m.group().replaceAll("['’]s?$", "").strip());
      String lower = span.toLowerCase(Locale.ROOT);
      boolean oneWord = !span.contains(" ");
      if (span.isEmpty() || span.equals("I")) {
        continue;
      }
      if (oneWord && OfflineLexicon.CALENDAR_WORDS.contains(lower)) {
        continue;
      }
      boolean trimmed = !m.group().startsWith(span);
      if (oneWord && !trimmed && m.start() == leadingOffset(plain) && !knownNames.contains(span)) {
        continue;
      }
      out.add(span);
    }
    return new ArrayList<>(out);
  }

  /** Up to {@code max} distinct content words of length >= 3, in order of appearance, not part of an entity. */
  static List<String> tags(String text, Collection<String> entities, int max) {
    String plain = PARENTHESES.matcher(text).replaceAll(" ");
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String w : contentWords(plain, entities)) {
      if (w.length() >= 3 && !w.endsWith("ly") && !OfflineLexicon.ADVERBS.contains(w)
          && !OfflineLexicon.IRREGULAR_PAST.contains(w) && !OfflineLexicon.SUBJECTLESS_STARTERS.contains(w)
          && !OfflineLexicon.NOT_TAGS.contains(w) && !w.chars().anyMatch(Character::isDigit)
          && !w.contains("'")) {
        out.add(w);
      }
      if (out.size() == max) {
        break;
      }
    }
    return new ArrayList<>(out);
  }

  /**
   * A capitalised span without leading words that cannot start a name: "Last Friday" becomes
   * "Friday" (then dropped as a calendar word), "Woah Vera" becomes "Vera".
   */
  private static String trimSpan(String span) {
    String[] words = span.split("\\s+");
    int i = 0;
    while (i < words.length) {
      String w = words[i].toLowerCase(Locale.ROOT).replace('’', '\'');
      if (OfflineLexicon.STOP_WORDS.contains(w) || OfflineLexicon.CHIT_CHAT.contains(w)
          || OfflineLexicon.INTERJECTIONS.contains(w) || OfflineLexicon.NOT_TAGS.contains(w)) {
        i++;
      } else {
        break;
      }
    }
    return String.join(" ", java.util.Arrays.copyOfRange(words, i, words.length));
  }

  private static int leadingOffset(String s) {
    int i = 0;
    while (i < s.length() && !Character.isLetterOrDigit(s.charAt(i))) {
      i++;
    }
    return i;
  }
}
