package dev.lychee.core.answer;

import dev.lychee.core.answer.EvidenceSentences.Sentence;
import dev.lychee.core.text.Terms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How well each evidence sentence supports a question. Support is the share of the question's
 * content words a sentence holds, each word weighted by how rare it is among the evidence's
 * sentences (a name said in every line tells less than the one word only the answer shares); the
 * speaker counts as said, since "I adopted a dog" is about the speaker. A sentence that itself asks
 * something is half an echo of the question, and the sentence after it in the same item (the
 * reply, in a window) takes over most of the question's support, because in dialogue the answer
 * follows the question.
 */
final class SentenceSupport {
  /**
   * Common irregular verb forms and their base form, so that "what did they make?" meets "we made
   * pots" and "what did she see?" meets "I saw": the suffix folding of {@link #root} cannot join
   * them. Declared first, as the word sets below are folded with it.
   */
  private static final Map<String, String> IRREGULAR = wordPairs(
      "made make makes make making make saw see seen see went go gone go goes go took take taken take gave give given give "
          + "bought buy felt feel found find told tell thought think taught teach brought bring built build began begin "
          + "begun begin won win met meet left leave kept keep wrote write written write read read ran run sang sing "
          + "drew draw drawn draw chose choose chosen choose caught catch held hold lost lose spent spend sent send "
          + "heard hear knew know known know grew grow grown grow came come became become paid pay said say "
          + "ate eat eaten eat drank drink drunk drink");

  /**
   * Everyday clipped words and their full forms, matched as one word: a question that asks about a
   * bicycle is asked about the bike a reply mentions (docs/defaults.md §5). Kept apart from
   * {@link #IRREGULAR}, whose other forms are past verbs.
   */
  private static final Map<String, String> CLIPPED = wordPairs(
      "bike bicycle bikes bicycles mum mother mom mother mums mothers moms mothers dad father dads fathers "
          + "photo photograph photos photographs pic picture pics pictures tv television telly television "
          + "fridge refrigerator uni university vet veterinarian vets veterinarians");

  /** A map from each first word of a space-separated list of pairs to the word after it. */
  private static Map<String, String> wordPairs(String pairs) {
    String[] w = pairs.split(" ");
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i + 1 < w.length; i += 2) {
      m.put(w[i], w[i + 1]);
    }
    return m;
  }

  /** Whether a word is an irregular past form ("made", "came", "took"), not a base form. */
  static boolean irregularPast(String word) {
    String base = IRREGULAR.get(word);
    return base != null && !base.equals(word) && !word.endsWith("s") && !word.endsWith("ing");
  }

  /** Support kept by a sentence that asks rather than tells. */
  static final double ASKING = 0.5;
  /** Share of an asking sentence's support its reply inherits. */
  static final double REPLY = 0.9;
  /** How many sentences before a sentence, in its item, count as its context. */
  static final int CONTEXT = 3;
  /** Share of the question's words that only a sentence's context holds which the sentence is credited with. */
  static final double CONTEXT_SHARE = 0.7;
  /**
   * Words that say when, not what: an unrelated sentence of today (or of the past) must not win by
   * them. Folded to roots like the question's words they are removed from.
   */
  private static final Set<String> WHEN_WORDS =
      roots("now currently current still latest nowadays before previously formerly originally");

  /**
   * A sentence with its support.
   *
   * @param sentence the sentence
   * @param support the weighted share of the question's words it holds, in [0, 1]
   * @param novelty the share of its own words the question lacks (the likely answer), in [0, 1]
   */
  record Scored(Sentence sentence, double support, double novelty) {}

  private SentenceSupport() {}

  /**
   * Nouns by which a question names a kind of thing, each with the verbs by which dialogue tells one
   * without the noun: a favourite food is told as "I ate pastel de nata every morning", a job title
   * as "I was promoted to team lead". A sentence holding one of the verbs counts as holding the noun
   * (docs/defaults.md §5).
   */
  private static final Map<String, Set<String>> TOLD_BY = toldBy(
      "food:eat dish:eat meal:eat snack:eat cuisine:eat drink:drink job:promot,hire title:promot position:promot,hire "
          + "role:promot,hire");

  private static Map<String, Set<String>> toldBy(String spec) {
    Map<String, Set<String>> m = new HashMap<>();
    for (String pair : spec.split(" ")) {
      String[] kv = pair.split(":");
      Set<String> verbs = new HashSet<>();
      for (String v : kv[1].split(",")) {
        verbs.add(root(v));
      }
      m.put(root(kv[0]), verbs);
    }
    return m;
  }

  /**
   * The roots of the question's words with the verbs that tell the kinds of thing it names
   * ({@link #TOLD_BY}): the words a sentence that answers may echo.
   */
  static Set<String> askedWithVerbs(String question) {
    Set<String> asked = roots(question);
    for (String noun : List.copyOf(asked)) {
      asked.addAll(TOLD_BY.getOrDefault(noun, Set.of()));
    }
    return asked;
  }

  /** A sentence's roots, with each of the question's kind nouns whose telling verb it holds. */
  private static void withToldNouns(Set<String> sentence, Set<String> question) {
    for (String noun : question) {
      Set<String> verbs = TOLD_BY.get(noun);
      if (verbs != null && !sentence.contains(noun) && verbs.stream().anyMatch(sentence::contains)) {
        sentence.add(noun);
      }
    }
  }

  /** The question's content words, as matched against sentences. */
  static Set<String> questionWords(String question) {
    Set<String> q = roots(question);
    q.removeAll(WHEN_WORDS);
    if (AnswerForm.of(question) != AnswerForm.DATE) {
      java.util.regex.Matcher m = DATE_WORDS.matcher(question);
      while (m.find()) {
        q.removeAll(roots(m.group()));
      }
    }
    if (AnswerForm.asksForAnEmployer(question)) {
      q.removeAll(EMPLOYER_WORDS);
    }
    if (AnswerForm.asksForAHome(question)) {
      q.removeAll(HOME_WORDS);
    }
    return q;
  }

  private static final java.util.regex.Pattern DATE_WORDS = java.util.regex.Pattern.compile(
      "\\b(?:january|february|march|april|may|june|july|august|september|october|november|december|(?:19|20)\\d\\d)\\b",
      java.util.regex.Pattern.CASE_INSENSITIVE);

  /**
   * The words by which "where does X work?" names the kind of answer it wants: an employer is told
   * as "I joined X" or "I started at X", which holds none of them, so they are not matched.
   */
  private static final Set<String> EMPLOYER_WORDS = roots("work works worked working job employed");
  /** The same for "where does X live?": a home is told as "I moved to X" as often as "I live in X". */
  private static final Set<String> HOME_WORDS = roots("live lives lived living");

  /** Every sentence scored, in the order given. */
  static List<Scored> score(String question, List<Sentence> sentences) {
    Set<String> q = questionWords(question);
    List<Set<String>> words = new ArrayList<>(sentences.size());
    Map<String, Integer> df = new HashMap<>();
    for (Sentence s : sentences) {
      Set<String> w = roots(s.text());
      if (s.speaker() != null) {
        w.addAll(roots(s.speaker()));
      }
      withToldNouns(w, q);
      words.add(w);
      w.stream().filter(q::contains).forEach(t -> df.merge(t, 1, Integer::sum));
    }
    Map<String, Double> weight = new HashMap<>();
    double total = 0;
    for (String t : q) {
      double wt = Math.log(1 + (sentences.size() + 1.0) / (1 + df.getOrDefault(t, 0)));
      weight.put(t, wt);
      total += wt;
    }
    List<Scored> out = new ArrayList<>(sentences.size());
    for (int i = 0; i < sentences.size(); i++) {
      Set<String> w = words.get(i);
      double shared = 0;
      int novel = 0;
      for (String t : w) {
        if (weight.containsKey(t)) {
          shared += weight.get(t);
        } else {
          novel++;
        }
      }
      double support = total == 0 ? 0 : shared / total;
      Sentence s = sentences.get(i);
      if (s.question()) {
        support *= ASKING;
      }
      out.add(new Scored(s, support, w.isEmpty() ? 0 : (double) novel / w.size()));
    }
    AnswerForm form = AnswerForm.of(question);
    if (total > 0 && form != AnswerForm.DATE) {
      withContext(sentences, words, weight, total, out, form == AnswerForm.QUANTITY);
    }
    // in dialogue the answer follows the question: the sentence after an asking one, in the same item,
    // inherits most of the support the asking sentence had before it was halved
    List<Scored> own = List.copyOf(out);
    Set<String> speakers = names(sentences);
    for (int i = 1; i < own.size(); i++) {
      Scored prev = own.get(i - 1);
      if (!prev.sentence().question()) {
        continue;
      }
      // a reply that only thanks, agrees or names the asker ("Thanks, Raf!") passes the question's
      // support on to the sentence of the reply that says something
      int j = i;
      while (j + 1 < own.size() && own.get(j).sentence().item() == prev.sentence().item()
          && !own.get(j).sentence().question() && !saysSomething(own.get(j).sentence(), speakers)
          && Objects.equals(own.get(j).sentence().speaker(), own.get(j + 1).sentence().speaker())) {
        j++;
      }
      Scored cur = own.get(j);
      if (prev.sentence().item() != cur.sentence().item() || cur.sentence().question()) {
        continue;
      }
      double inherited = REPLY * prev.support() / ASKING;
      if (inherited > out.get(j).support()) {
        out.set(j, new Scored(cur.sentence(), inherited, cur.novelty()));
      }
    }
    return out;
  }

  /**
   * In dialogue the question's words are often spread over a few lines: one names the topic ("I took
   * my kids to a pottery class"), a follow-up asks about it ("what did you build?") and the next line
   * answers ("We made our own pots") while holding few of the question's words itself. A sentence
   * that says something is scored, besides by its own words, by the words of up to {@link #CONTEXT}
   * sentences before it in the same item: when they and it together hold more of the question than
   * any of them alone, it is credited with {@link #CONTEXT_SHARE} of what the context adds. The
   * context ends at the nearest earlier sentence in which the same speaker tells something (that one
   * is still read): what lies above it is the context of that sentence, which answers it, not of the
   * speaker's next remark. For a question for a quantity ({@code answeredQuestion}) the question that
   * remark answers is read too: a number is often told right after a reply that only confirms ("how
   * did the race go?" / "I finished it!" / "Two hours ten."), so it answers that question
   * (docs/defaults.md §5). A question for a date is left out: its answer is told with the topic,
   * not after it.
   */
  private static void withContext(List<Sentence> sentences, List<Set<String>> words, Map<String, Double> weight,
      double total, List<Scored> out, boolean answeredQuestion) {
    List<Scored> own = List.copyOf(out);
    Set<String> speakers = names(sentences);
    for (int i = 0; i < sentences.size(); i++) {
      Sentence s = sentences.get(i);
      if (s.question() || !saysSomething(s, speakers)) {
        continue;
      }
      Set<String> window = new HashSet<>(words.get(i));
      double bestAlone = own.get(i).support();
      for (int j = i - 1; j >= Math.max(0, i - CONTEXT) && sentences.get(j).item() == s.item(); j--) {
        Sentence before = sentences.get(j);
        window.addAll(words.get(j));
        // an asking sentence's words count in full here: the follow-up names what is asked about
        bestAlone = Math.max(bestAlone, own.get(j).support() / (before.question() ? ASKING : 1));
        if (!before.question() && Objects.equals(before.speaker(), s.speaker()) && saysSomething(before, speakers)) {
          // the same speaker told something just before: the context further up belongs to that
          // sentence, which answers it ("how is the commute?" / "Twenty minutes by bike." / "My flat
          // is small..." credits the bike, not the flat)
          if (answeredQuestion && j > 0 && sentences.get(j - 1).item() == s.item() && sentences.get(j - 1).question()
              && !Objects.equals(sentences.get(j - 1).speaker(), s.speaker())) {
            // for a quantity, that remark may only confirm the question it answers ("how did the
            // race go?" / "I finished it!" / "Two hours ten."): the number belongs to that question
            window.addAll(words.get(j - 1));
          }
          break;
        }
      }
      double together = 0;
      for (String t : window) {
        together += weight.getOrDefault(t, 0.0);
      }
      together /= total;
      if (together > bestAlone) {
        double mine = own.get(i).support();
        out.set(i, new Scored(s, mine + CONTEXT_SHARE * (together - mine), own.get(i).novelty()));
      }
    }
  }

  private static Set<String> names(List<Sentence> sentences) {
    Set<String> names = new HashSet<>();
    for (Sentence s : sentences) {
      if (s.speaker() != null) {
        names.add(s.speaker().toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }

  /** Whether a sentence holds a word that can answer: not only thanks, praise, fillers or a speaker's name. */
  static boolean saysSomething(Sentence s, Set<String> names) {
    for (String w : s.text().split("\\s+")) {
      String bare = w.replaceAll("^\\W+|\\W+$", "").toLowerCase(Locale.ROOT);
      if (!names.contains(bare) && AnswerSpans.answering(w)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Content words folded to a root, so that "painted", "painting" and "paints" meet, and "raise"
   * meets "raising": the plural fold of {@link Terms#content}, common irregular verb forms ("made"
   * meets "make"), the common verb endings, a final silent "e", and at most six letters.
   */
  static Set<String> roots(String text) {
    Set<String> out = new HashSet<>();
    for (String t : Terms.content(text)) {
      out.add(root(t));
    }
    return out;
  }

  private static String root(String t) {
    String w = t.toLowerCase(Locale.ROOT);
    w = IRREGULAR.getOrDefault(w, w);
    w = CLIPPED.getOrDefault(w, w);
    for (String end : new String[] {"ing", "ed", "er", "es"}) {
      if (w.length() - end.length() >= 4 && w.endsWith(end)) {
        w = w.substring(0, w.length() - end.length());
        break;
      }
    }
    if (w.length() >= 5 && w.endsWith("e")) {
      w = w.substring(0, w.length() - 1);
    }
    return w.length() > 6 ? w.substring(0, 6) : w;
  }
}
