package dev.lychee.core.encode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Conservative resolution of "he/she/him/her/his" for the offline encoder, over the sentences of one
 * segment, after first and second person have already become names.
 *
 * <p>A <em>referent</em> is a non-speaker person or animal a sentence mentions:
 * <ul>
 *   <li>a possessed person or pet noun, "Rafael's son", "Lena's new puppy"; when a name follows
 *       ("Rafael's son Max", "Nadia's friend, Pavel") the referent is the name. The noun's grammatical
 *       gender (son/he, daughter/she) is general English; other nouns (friend, dog) fit either;
 *   <li>a capitalised name of at most two words inside the sentence that is not a speaker (nor the
 *       start of a speaker's name, "Raf"), not a vocative ("..., Pavel!"), not in quotes and not after a
 *       place preposition ("to Paris"). Its gender is unknown;
 *   <li>a capitalised word opening a sentence (not a gerund or an adverb) counts as a name only when
 *       the segment has already used it inside a sentence ("a pic of Felix" ... "Felix's
 *       hilarious!"); otherwise it might be any noun ("Life's been wild") and only makes the pronoun
 *       ambiguous;
 *   <li>an unnamed person ("a little girl", "this woman", "someone") also only makes the pronoun
 *       ambiguous: it is the likelier antecedent, and there is no name to put in its place.
 * </ul>
 * The window is the previous turn and the current turn's earlier sentences; the sentence itself also
 * counts, so that a second mention there makes the pronoun ambiguous. A pronoun is replaced only when
 * exactly one referent in the window fits its gender, and the sentence does not already name it
 * (then the record already stands alone). Everything else stays as written. "They", "them",
 * "their" and "it" are never resolved: plural and inanimate antecedents (a band, a family, a
 * painting) cannot be told apart by rule. Reflexives ("himself") stay.
 *
 * <p>One instance per segment; not thread-safe.
 */
final class ThirdPersonResolver {

  /** Grammatical gender of a referent: what the pronoun must agree with. */
  enum Gender { MALE, FEMALE, EITHER }

  /**
   * A person or animal a sentence mentions, as it should appear in place of a pronoun.
   *
   * @param nameable false for a mention that only makes pronouns ambiguous and never replaces one
   */
  record Referent(String phrase, Gender gender, boolean nameable) {}

  private static final Set<String> MALE_NOUNS = Set.of("son", "brother", "husband", "dad", "father", "grandpa",
      "grandfather", "uncle", "nephew", "boyfriend", "stepson", "stepdad", "stepfather", "fiance", "grandson");
  private static final Set<String> FEMALE_NOUNS = Set.of("daughter", "sister", "wife", "mom", "mum", "mother",
      "grandma", "grandmother", "aunt", "niece", "girlfriend", "stepdaughter", "stepmom", "stepmother",
      "fiancee", "granddaughter");
  private static final Set<String> EITHER_NOUNS = Set.of("friend", "kid", "child", "baby", "partner", "cousin",
      "coach", "teacher", "boss", "mentor", "neighbor", "neighbour", "colleague", "coworker", "roommate",
      "dog", "cat", "puppy", "pup", "kitten", "pet", "horse", "parrot", "spouse", "therapist", "doctor",
      "sibling", "toddler", "grandchild", "student", "client", "bestie", "buddy");
  private static final String NOUNS = String.join("|", union(MALE_NOUNS, FEMALE_NOUNS, EITHER_NOUNS));
  private static final Pattern POSSESSED = Pattern.compile(
      "\\b([A-Z][\\w]*(?:\\s+[A-Z][\\w]*)?)['’]s\\s+((?:(?:new|little|older|younger|big|baby|best|close|old"
          + "|oldest|youngest|eldest|dear|late|sweet|furry|first|second|third)\\s+)*)(" + NOUNS + ")\\b"
          + "(?:,?\\s+(?:named\\s+|called\\s+)?([A-Z][a-z]+)\\b)?");
  private static final Pattern NAME = Pattern.compile("\\b[A-Z][a-z]+(?:\\s+[A-Z][a-z]+)?\\b");
  private static final Pattern OPENING_NAME = Pattern.compile("^\\W*([A-Z][a-z]+(?:\\s+[A-Z][a-z]+)?)(?:['’]s)?\\b");
  private static final Pattern UNNAMED_PERSON = Pattern.compile("\\b(?:a|an|this|that|one|some|another)\\s+"
      + "(?:[a-z]+\\s+){0,2}?(girl|woman|lady|boy|man|guy|gentleman|kid|child|person|stranger|teen|teenager"
      + "|friend|actor|actress|artist|writer|author|singer|player|student|baby)\\b(?!,?\\s+(?:named|called|[A-Z]))"
      + "|\\b(someone|somebody)\\b(?!,?\\s+(?:named|called|[A-Z]))");
  /** A name addressed rather than mentioned: "Thanks, Pavel!", "Hey Pavel,". */
  private static final Pattern GREETING_BEFORE = Pattern.compile(
      "\\b(?:hey|hi|hello|thanks|thank you|bye|congrats|dear)[\\s,]+$", Pattern.CASE_INSENSITIVE);
  private static final Pattern CLAUSE_BEFORE = Pattern.compile("(?:^|[,;:])\\s*$");
  private static final Pattern PUNCT_AFTER = Pattern.compile("^\\s*(?:[!?,.]|$)");
  private static final Pattern END_AFTER = Pattern.compile("^\\s*[!?.]*\\s*$");
  private static final Pattern PLACE_BEFORE = Pattern.compile(
      "\\b(?:in|at|to|from|near|around|into|visit|visited|visiting|the)\\s+$", Pattern.CASE_INSENSITIVE);
  /** Quoted titles, also when the sentence split took the closing quote away. */
  private static final Pattern QUOTED = Pattern.compile("\"[^\"]*(?:\"|$)|“[^”]*(?:”|$)");
  private static final Pattern PARENTHESES = Pattern.compile("\\([^)]*\\)");

  private static final Pattern MALE_PRONOUN = Pattern.compile(
      "\\b(?:(he)\\s*['’]\\s*(s|ll|d)|(he|him|his))\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern FEMALE_PRONOUN = Pattern.compile(
      "\\b(?:(she)\\s*['’]\\s*(s|ll|d)|(she|her))\\b(\\s+[A-Za-z'’]+)?", Pattern.CASE_INSENSITIVE);
  /** Verbs whose object is followed by a bare verb ("saw her wobble", "helped her find"): "her" is the object. */
  private static final Pattern BARE_INFINITIVE_VERB = Pattern.compile(
      "\\b(?:see|sees|saw|seeing|seen|watch|watched|watching|hear|heard|let|lets|make|made|making|help|helps|helped"
          + "|helping)\\s+$", Pattern.CASE_INSENSITIVE);
  /** After "he's"/"she's", these make the contraction "has", not "is". */
  private static final Pattern HAS_FOLLOWS = Pattern.compile("^\\s+(?:(?:always|never|just|already|really|also|finally)\\s+)*"
      + "(?:been|got|gotten|had|done|made|gone|seen|taken|become|grown|given)\\b");
  /** After "her", these show it is an object ("gave her a hug", "helped her out"); other words are possessed. */
  private static final Set<String> OBJECT_FOLLOWERS = Set.of("a", "an", "the", "to", "for", "from", "with", "at",
      "in", "on", "of", "and", "or", "but", "so", "that", "this", "too", "as", "when", "because", "if", "up",
      "out", "back", "about", "into", "over", "again", "down", "off", "some", "any", "more", "how", "what",
      "all", "like", "feel", "know", "is", "was", "has", "had", "will", "would", "can", "could", "very",
      "since", "by", "while", "before", "after", "until", "through", "around", "there", "here", "now",
      "then", "today", "yesterday", "tomorrow", "every", "much", "lots", "just", "which", "who", "where");

  private final Set<String> speakers;
  /** Names the segment has used inside a sentence: such a name opening a sentence is a name too. */
  private final Set<String> seenNames = new java.util.HashSet<>();
  private List<Referent> previousTurn = List.of();
  private final List<Referent> currentTurn = new ArrayList<>();

  /** @param speakers the segment's speaker names; never referents */
  ThirdPersonResolver(Collection<String> speakers) {
    this.speakers = Set.copyOf(speakers);
  }

  /** Starts a new turn: the finished turn becomes the previous one. */
  void nextTurn() {
    previousTurn = List.copyOf(currentTurn);
    currentTurn.clear();
  }

  /** Remembers the referents a sentence of the current turn mentions (call after {@link #resolve}). */
  void observe(String sentence) {
    for (Referent r : referents(sentence)) {
      currentTurn.removeIf(old -> old.phrase().equals(r.phrase()));
      currentTurn.add(r);
    }
  }

  /** The sentence with unambiguous "he/him/his" and "she/her" replaced by their referent. */
  String resolve(String sentence) {
    if (!MALE_PRONOUN.matcher(sentence).find() && !FEMALE_PRONOUN.matcher(sentence).find()) {
      return sentence;
    }
    Map<String, Referent> window = new LinkedHashMap<>();
    for (List<Referent> part : List.of(previousTurn, currentTurn, referents(sentence))) {
      for (Referent r : part) {
        window.merge(r.phrase(), r, (a, b) -> new Referent(a.phrase(),
            a.gender() == Gender.EITHER ? b.gender() : a.gender(), a.nameable() || b.nameable()));
      }
    }
    boolean hasMale = MALE_PRONOUN.matcher(sentence).find();
    boolean hasFemale = FEMALE_PRONOUN.matcher(sentence).find();
    Referent male = hasMale ? single(window.values(), Gender.MALE) : null;
    Referent female = hasFemale ? single(window.values(), Gender.FEMALE) : null;
    if (male != null && male.equals(female)) {
      return sentence; // "he" and "she" both pointing at one name of unknown gender: something is off
    }
    String s = sentence;
    if (male != null && !mentions(sentence, male)) {
      s = PersonRewriter.replace(MALE_PRONOUN, s, m -> m.group(1) != null
          ? male.phrase() + " " + contraction(m.group(2), sentence.substring(m.end()))
          : m.group(3).equalsIgnoreCase("his") ? PersonRewriter.possessive(male.phrase()) : male.phrase());
    }
    if (female != null && !mentions(sentence, female)) {
      String base = s;
      s = PersonRewriter.replace(FEMALE_PRONOUN, s, m -> {
        String next = m.group(4) == null ? "" : m.group(4);
        if (m.group(1) != null) {
          return female.phrase() + " " + contraction(m.group(2), base.substring(m.end(2))) + next;
        }
        if (m.group(3).equalsIgnoreCase("she")) {
          return female.phrase() + next;
        }
        // "her" is possessive before a content word ("her first steps"), else an object ("gave her a")
        String word = next.strip().toLowerCase(Locale.ROOT).replace('’', '\'');
        boolean possessive = !word.isEmpty() && !OBJECT_FOLLOWERS.contains(word)
            && !BARE_INFINITIVE_VERB.matcher(base.substring(0, m.start())).find();
        return (possessive ? PersonRewriter.possessive(female.phrase()) : female.phrase()) + next;
      });
    }
    return s;
  }

  /** The referents a sentence mentions, in order. */
  List<Referent> referents(String sentence) {
    String plain = QUOTED.matcher(PARENTHESES.matcher(sentence).replaceAll(" ")).replaceAll(" ");
    Map<String, Referent> out = new LinkedHashMap<>();
    StringBuilder rest = new StringBuilder(plain);
    Matcher m = POSSESSED.matcher(plain);
    while (m.find()) {
      String noun = m.group(3).toLowerCase(Locale.ROOT);
      Gender g = MALE_NOUNS.contains(noun) ? Gender.MALE : FEMALE_NOUNS.contains(noun) ? Gender.FEMALE : Gender.EITHER;
      String name = m.group(4);
      boolean named = name != null && usableName(name);
      String phrase = named ? name : m.group(1) + "'s " + m.group(2) + m.group(3);
      if (named) {
        seenNames.add(name);
      }
      out.put(phrase, new Referent(phrase, g, true));
      // the span is consumed, so its owner and name are not counted again as bare names
      for (int i = m.start(); i < m.end(); i++) {
        rest.setCharAt(i, ' ');
      }
    }
    Matcher opening = OPENING_NAME.matcher(rest);
    String head = opening.find() ? opening.group(1).split("\\s+")[0] : null;
    if (head != null && usableName(head) && !head.endsWith("ing") && !head.endsWith("ly")) {
      // "Iron Man is my pick" still blocks: any capitalised opening that is not a common word
      String name = opening.group(1);
      out.putIfAbsent(name, new Referent(name, Gender.EITHER, usableName(name) && seenNames.contains(name)));
    }
    Matcher n = NAME.matcher(rest);
    while (n.find()) {
      String name = n.group();
      if (n.start() == leadingOffset(rest) || !usableName(name)
          || PLACE_BEFORE.matcher(rest.substring(0, n.start())).find()
          || vocative(rest.substring(0, n.start()), rest.substring(n.end()))) {
        continue;
      }
      seenNames.add(name);
      out.putIfAbsent(name, new Referent(name, Gender.EITHER, true));
    }
    Matcher u = UNNAMED_PERSON.matcher(plain);
    while (u.find()) {
      String noun = u.group(1) == null ? u.group(2) : u.group(1);
      Gender g = switch (noun) {
        case "girl", "woman", "lady", "actress" -> Gender.FEMALE;
        case "boy", "man", "guy", "gentleman" -> Gender.MALE;
        default -> Gender.EITHER;
      };
      out.putIfAbsent(u.group(), new Referent(u.group(), g, false));
    }
    return new ArrayList<>(out.values());
  }

  /** "Thanks, Pavel!", "Hey Pavel, ...", "..., Pavel.": a name addressed rather than mentioned. */
  private static boolean vocative(String before, String after) {
    return (GREETING_BEFORE.matcher(before).find() && PUNCT_AFTER.matcher(after).find())
        || (CLAUSE_BEFORE.matcher(before).find() && END_AFTER.matcher(after).find());
  }

  private boolean usableName(String name) {
    for (String w : name.split("\\s+")) {
      if (isCommon(w)) {
        return false;
      }
      for (String speaker : speakers) {
        // "Raf" for Rafael: a short form of a speaker's name is the speaker
        if (speaker.startsWith(w) || w.equals(speaker)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Capitalised words that are not names: sentence words, interjections, calendar words, "I". */
  private static boolean isCommon(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    return w.equals("i") || OfflineLexicon.STOP_WORDS.contains(w) || OfflineLexicon.CHIT_CHAT.contains(w)
        || OfflineLexicon.INTERJECTIONS.contains(w) || OfflineLexicon.CALENDAR_WORDS.contains(w)
        || OfflineLexicon.NOT_TAGS.contains(w) || OfflineLexicon.ADVERBS.contains(w)
        || OfflineLexicon.SUBJECTLESS_STARTERS.contains(w) || OfflineLexicon.IRREGULAR_PAST.contains(w);
  }

  /**
   * The only referent that agrees with the pronoun's gender, or null when none or several do, or when
   * the only one has no name.
   */
  private static Referent single(Collection<Referent> window, Gender pronoun) {
    Referent found = null;
    for (Referent r : window) {
      if (r.gender() == Gender.EITHER || r.gender() == pronoun) {
        if (found != null) {
          return null;
        }
        found = r;
      }
    }
    return found != null && found.nameable() ? found : null;
  }

  private static boolean mentions(String sentence, Referent r) {
    return Pattern.compile("(?<![\\w])" + Pattern.quote(r.phrase()) + "(?![\\w])").matcher(sentence).find();
  }

  private static String contraction(String c, String after) {
    return switch (c.toLowerCase(Locale.ROOT)) {
      case "ll" -> "will";
      case "d" -> "would";
      default -> HAS_FOLLOWS.matcher(after).find() ? "has" : "is";
    };
  }

  private static int leadingOffset(CharSequence s) {
    int i = 0;
    while (i < s.length() && !Character.isLetterOrDigit(s.charAt(i))) {
      i++;
    }
    return i;
  }

  @SafeVarargs
  private static List<String> union(Set<String>... sets) {
    List<String> all = new ArrayList<>();
    for (Set<String> s : sets) {
      all.addAll(s);
    }
    // longest first, so that "grandmother" is preferred over "grand..." prefixes in the alternation
    all.sort((a, b) -> b.length() - a.length());
    return all;
  }
}
