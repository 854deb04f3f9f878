package dev.lychee.core.encode;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites first-person words to the speaker's name and second-person words to the addressee's
 * name, with third-person verb agreement for the word right after a subject pronoun ("I love" →
 * "Rafael loves", "you are" → "Nadia is").
 *
 * <ul>
 *   <li>"Our" becomes the speaker's possessive ("our city" → "Rafael's city"), which is what a later
 *       question asks about.
 *   <li>"We" and "us" become "&lt;speaker&gt; and others": who else they include cannot be known by
 *       rule, but the speaker is always among them, and the plural keeps the verb's agreement ("we
 *       are" → "Rafael and others are"). "Ourselves" becomes "themselves". The exception is "we
 *       both" / "both of us" and "we" talking or meeting ("since we last talked"), which in a
 *       two-party chat name both: "Rafael and Nadia both", "since Rafael and Nadia last talked".
 *   <li>Reflexives ("myself", "yourself") become the gender-neutral "themself" when the person is
 *       already named earlier in the sentence ("Nadia wants to embrace themself"); otherwise the
 *       name itself ("a gift to myself" → "a gift to Nadia"). Names carry no gender by rule, so
 *       "herself"/"himself" would be a guess.
 * </ul>
 */
final class PersonRewriter {

  private static final String APOS = "['’]";
  private static final Pattern FIRST_CONTRACTION = Pattern.compile(
      "\\bI\\s*" + APOS + "\\s*(m|ve|d|ll)\\b|\\bI\\s+am\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern SECOND_CONTRACTION = Pattern.compile(
      "\\byou\\s*" + APOS + "\\s*(re|ve|d|ll)\\b|\\byou\\s+(are|were|have)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern FIRST_SUBJECT = Pattern.compile("\\bI\\b((?:\\s+[A-Za-z]+ly|\\s+(?:"
      + String.join("|", OfflineLexicon.ADVERBS) + "))*)\\s+([A-Za-z'’]+)");
  private static final Pattern LOWER_I = Pattern.compile("(?<![\\w'’])i(?![\\w'’])");
  private static final Pattern SECOND_SUBJECT = Pattern.compile(
      "(^|[,;:!.]\\s*|\\b(?:and|but|so|because|that|if|when|since|as|while|cause|where|how|what|why|hope|think|bet)\\s+)"
          + "you\\b((?:\\s+(?:" + String.join("|", OfflineLexicon.ADVERBS) + "))*)\\s+([A-Za-z'’]+)",
      Pattern.CASE_INSENSITIVE);

  private static final Pattern CAPITAL_I = Pattern.compile("\\bI\\b");
  private static final Pattern FIRST_OBJECT = Pattern.compile("(?<![\\w-])(me|myself)(?![\\w-])",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern WE_CONTRACTION = Pattern.compile("\\b[Ww]e\\s*" + APOS + "\\s*(re|ve|ll|d)\\b");
  /** "We" and "us" in lower case or opening a sentence; "US" (the country) is left alone. */
  private static final Pattern WE = Pattern.compile("\\b(?:[Ww]e|us|Us)\\b");
  /** "We" with a verb of talking or meeting: in a two-party chat, the two of them. */
  private static final Pattern WE_TOGETHER = Pattern.compile("\\b[Ww]e(?=\\s+(?:(?:last|should|could|can|must|will"
      + "|finally|just|never|always|often)\\s+)*(?:talked|spoke|chatted|caught up|talk|chat|catch up|hang out"
      + "|hung out|met up|meet up|get together|got together|saw each other|see each other|seen each other)\\b)");
  private static final Pattern WE_BOTH = Pattern.compile("\\b(?:([Ww]e|us)((?:\\s+(?:can|could|should|will|would|are"
      + "|were|have|had|do|did|must|might|really))*)\\s+both|[Bb]oth of us)\\b");
  private static final Pattern OURSELVES = Pattern.compile("\\b[Oo]urselves\\b");
  private static final Pattern FIRST_POSSESSIVE = Pattern.compile("(?<![\\w-])(?:my|mine)(?![\\w-])",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern OUR = Pattern.compile("(?<![\\w-])(?:our|ours)(?![\\w-])", Pattern.CASE_INSENSITIVE);
  private static final Pattern SECOND_POSSESSIVE = Pattern.compile("\\b(?:your|yours)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern SECOND_OTHER = Pattern.compile("\\b(you|yourself)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern ANY_PERSON = Pattern.compile(
      "\\b(?:I|me|my|mine|myself|you|your|yours|yourself)\\b", Pattern.CASE_INSENSITIVE);

  private PersonRewriter() {}

  /**
   * The sentence with person words replaced.
   *
   * @param speaker the speaker's name (never null)
   * @param addressee the other speaker's name, or null when it is not known unambiguously (second
   *     person then stays as written)
   */
  static String rewrite(String sentence, String speaker, String addressee) {
    String s = LOWER_I.matcher(sentence).replaceAll("I");
    s = replace(FIRST_CONTRACTION, s, m -> speaker + " " + contraction(m.group(1) == null ? "am" : m.group(1)));
    s = replace(FIRST_SUBJECT, s, m -> speaker + m.group(1) + " " + thirdPerson(m.group(2)));
    s = replace(CAPITAL_I, s, m -> speaker);
    s = reflexive(FIRST_OBJECT, s, speaker);
    s = replace(FIRST_POSSESSIVE, s, m -> possessive(speaker));
    // "our city", "our kids": the speaker's, which is what a later question asks about
    s = replace(OUR, s, m -> possessive(speaker));
    if (addressee != null) {
      s = replace(WE_TOGETHER, s, m -> speaker + " and " + addressee);
      // "we both", "both of us": in a two-party chat, exactly the speaker and the addressee
      s = replace(WE_BOTH, s, m -> m.group(1) != null ? speaker + " and " + addressee + m.group(2) + " both"
          : m.group().startsWith("B") ? "Both " + speaker + " and " + addressee : "both " + speaker + " and " + addressee);
    }
    String group = speaker + " and others";
    s = replace(WE_CONTRACTION, s, m -> group + " " + switch (m.group(1).toLowerCase(Locale.ROOT)) {
      case "re" -> "are";
      case "ve" -> "have";
      case "ll" -> "will";
      default -> "would";
    });
    s = replace(WE, s, m -> group);
    s = replace(OURSELVES, s, m -> "themselves");
    if (addressee != null) {
      s = replace(SECOND_CONTRACTION, s, m -> addressee + " "
          + contraction(m.group(1) != null ? m.group(1) : m.group(2)));
      s = replace(SECOND_SUBJECT, s, m -> m.group(1) + addressee + m.group(2) + " " + thirdPerson(m.group(3)));
      s = replace(SECOND_POSSESSIVE, s, m -> possessive(addressee));
      s = reflexive(SECOND_OTHER, s, addressee);
    }
    return s;
  }

  /**
   * Replaces the object pronoun (group 1 "me"/"you") by the name, and the reflexive by "themself"
   * when the name already appears before it in the sentence, else by the name.
   */
  private static String reflexive(Pattern p, String s, String name) {
    return replace(p, s, m -> m.group(1).toLowerCase(Locale.ROOT).endsWith("self")
        && Pattern.compile("(?<![\\w])" + Pattern.quote(name) + "(?![\\w])").matcher(s.substring(0, m.start())).find()
        ? "themself" : name);
  }

  /** True when the sentence uses first- or second-person words this class rewrites. */
  static boolean personal(String sentence) {
    return ANY_PERSON.matcher(sentence).find();
  }

  static String possessive(String name) {
    return name.endsWith("s") ? name + "'" : name + "'s";
  }

  private static String contraction(String c) {
    return switch (c.toLowerCase(Locale.ROOT)) {
      case "m", "are", "re" -> "is";
      case "ve", "have" -> "has";
      case "d" -> "would";
      case "ll" -> "will";
      case "were" -> "was";
      default -> "is"; // "I am"
    };
  }

  /** The third-person singular present of a verb that followed "I" or "you"; other words unchanged. */
  static String thirdPerson(String word) {
    String w = word.toLowerCase(Locale.ROOT).replace('’', '\'');
    String fixed = switch (w) {
      case "am", "are" -> "is";
      case "have" -> "has";
      case "do" -> "does";
      case "go" -> "goes";
      case "don't" -> "doesn't";
      case "haven't" -> "hasn't";
      case "aren't" -> "isn't";
      case "were" -> "was";
      case "weren't" -> "wasn't";
      default -> null;
    };
    if (fixed != null) {
      return fixed;
    }
    if (!w.chars().allMatch(Character::isLetter) || OfflineLexicon.MODALS.contains(w)
        || OfflineLexicon.IRREGULAR_PAST.contains(w) || OfflineLexicon.STOP_WORDS.contains(w)
        || OfflineLexicon.ADVERBS.contains(w) || w.endsWith("ed") || w.endsWith("ing") || w.endsWith("ly")
        || (w.endsWith("s") && !w.endsWith("ss")) || w.length() < 2) {
      return word;
    }
    if (w.endsWith("ss") || w.endsWith("sh") || w.endsWith("ch") || w.endsWith("x") || w.endsWith("z")
        || w.endsWith("o")) {
      return word + "es";
    }
    if (w.endsWith("y") && w.length() > 2 && "aeiou".indexOf(w.charAt(w.length() - 2)) < 0) {
      return word.substring(0, word.length() - 1) + "ies";
    }
    return word + "s";
  }

  /** Replaces every match of {@code p} with what {@code f} makes of it. */
  static String replace(Pattern p, String s, java.util.function.Function<Matcher, String> f) {
    Matcher m = p.matcher(s);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(f.apply(m)));
    }
    m.appendTail(sb);
    return sb.toString();
  }
}
