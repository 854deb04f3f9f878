package dev.lychee.core.plan;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grammatical forms of a question that say how it should be searched, beside its type
 * ({@link QuestionTypes} says what it asks for).
 */
final class QuestionForms {
  private static final Pattern WORD = Pattern.compile("[a-z']+");
  /** Finite auxiliaries that can lead a question's main clause ("may" left out: it is also a month). */
  private static final Set<String> AUXILIARIES = Set.of("do", "does", "did", "is", "are", "was", "were", "am",
      "has", "have", "had", "can", "will", "shall", "should", "must", "would", "could", "might",
      "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "can't", "won't",
      "wouldn't", "couldn't");
  /** The modals of a supposition: the question asks what is likely, not what was said. */
  private static final Set<String> HYPOTHETICAL_MODALS = Set.of("would", "could", "might", "wouldn't", "couldn't");

  private QuestionForms() {}

  /**
   * Whether the question asks for an inference rather than a stated fact: its main clause is led
   * by "would", "could" or "might" ("Would Dana enjoy ...?", "What might Omar's degree be in?",
   * "What job could Priya pursue?"), or it asks what is "likely" ("Is it likely that ...?"). The
   * main clause's auxiliary is the question's first one (a yes/no question starts with it, a
   * wh-question puts it after the question word and its noun), so a modal in a clause below it
   * ("What does Omar feel he could do ...?") does not count.
   */
  static boolean hypothetical(String question) {
    Matcher m = WORD.matcher(words(question));
    boolean auxiliarySeen = false;
    while (m.find()) {
      String w = m.group();
      if (w.equals("likely")) {
        return true;
      }
      if (!auxiliarySeen && AUXILIARIES.contains(w)) {
        if (HYPOTHETICAL_MODALS.contains(w)) {
          return true;
        }
        auxiliarySeen = true;
      }
    }
    return false;
  }

  /**
   * Whether the question is a yes/no question: its first word is an auxiliary ("Would Dana ...?",
   * "Is it likely that ...?", "Does Omar ...?"), where a wh-question starts with its question word
   * or a phrase holding it ("In what ways ...").
   */
  static boolean yesNo(String question) {
    Matcher m = WORD.matcher(words(question));
    return m.find() && AUXILIARIES.contains(m.group());
  }

  /** Lower case, with a typographic apostrophe ("wouldn\u2019t") read as the plain one. */
  private static String words(String question) {
    return question.toLowerCase(Locale.ROOT).replace('\u2019', '\'');
  }
}
