package dev.lychee.core.encode;

import dev.lychee.api.DateRange;
import dev.lychee.api.Encoding;
import dev.lychee.api.MemoryRecord;
import dev.lychee.api.MemoryType;
import dev.lychee.api.RawTurn;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Role;
import dev.lychee.api.Segment;
import dev.lychee.api.SourceRole;
import dev.lychee.api.TemporalScope;
import dev.lychee.api.TokenUsage;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.time.DateMention;
import dev.lychee.core.time.TemporalNormalizer;
import dev.lychee.core.time.Tense;
import jakarta.inject.Inject;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded, LLM-free segment encoder: one record per informative sentence.
 *
 * <p>For every turn of the segment, in order:
 * <ol>
 *   <li>image captions written into the text ({@code [shares photo: ...]}) become their own record,
 *       "&lt;speaker&gt; shared a photo of ...";
 *   <li>the rest is split into sentences; leading interjections ("Wow,") and vocatives
 *       ("..., Nadia!") are removed;
 *   <li>greetings, fillers, acknowledgements and praise are dropped: a sentence needs at least
 *       {@link EncodingConfig#minContentWords()} content words and three words in all; questions are
 *       dropped unless they also state something about the speaker ("Did I tell you I adopted a
 *       puppy?"); assistant sentences are kept only when they address the user;
 *   <li>date expressions are resolved by {@link TemporalNormalizer} against the turn's time, and a
 *       relative one is followed by its date in parentheses: "yesterday (2023-05-07)";
 *   <li>first-person words become the speaker's name; second-person words become the other
 *       speaker's name when the session has exactly two named speakers (taken from the segment and
 *       from the previous note's "Speakers:" line); a sentence that still does not name its speaker
 *       gets the speaker as subject ("Went hiking." → "Rafael went hiking.") or is reported
 *       ("Nadia said that the stories were inspiring.");
 *   <li>entities (known speaker names, capitalised spans), tags (salient content words) and the
 *       memory type ({@link TypeRules}) are derived; the record cites only its own turn.
 * </ol>
 * The disambiguation note lists the session's speakers, so the next segment can resolve "you" even
 * when only one of them speaks in it.
 *
 * <p>Stateless and thread-safe.
 */
public final class OfflineEncoder implements Encoder {

  private static final Pattern SPEAKERS_LINE = Pattern.compile("(?m)^Speakers:\\s*(.+)$");
  private static final Pattern GERUND_SUBJECT = Pattern.compile(
      "^\\w+ing\\b[^,;.!?–—-]*?\\s(?:is|was|are|were|makes|made|helps|helped|gives|gave|can|will|has|keeps|sounds|seems|looks|feels|means|brings|brought|reminds|reminded|lets|allows|taught|teaches|puts|put|gets|got|takes|took|needs|requires|became|becomes|really)\\b|^\\w+ing\\b\\S*['’]s\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern ADJECTIVE_FOLLOWER = Pattern.compile("^(?:for|about|to|with|by|at|that)\\b");
  private static final Pattern SECOND_PERSON = Pattern.compile("\\b(you|your|yours)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern FIRST_PERSON = Pattern.compile("\\b(I|my|me)\\b");
  private static final Pattern FIRST_WORD = Pattern.compile("^[A-Za-z'’]+");
  /** Past forms that read the same as an imperative ("Let me know", "Put it there"): no implied subject. */
  private static final Set<String> IMPERATIVE_LOOKING =
      Set.of("let", "put", "set", "cut", "hit", "read", "quit", "hurt", "shut");
  /**
   * Discourse markers that open a chat sentence without adding to it ("And thanks for asking, ...",
   * "By the way, ...", "Haha ..."). Removed repeatedly, together with a following comma or dash.
   */
  private static final Pattern LEADING_FILLER = Pattern.compile(
      "^(?:(?:and|but|plus|anyway|anyways|thanks for asking|thank you for asking|by the way|to be honest"
          + "|guess what|oh my god|oh my gosh|of course|not gonna lie|tbh|yup|yep|yea|yeah|ya|hey there"
          + "|hah?a(?:ha)*h*|a+h+(?:a+h+)+|l+o+l+|oh+|wow+)(?=[\\s,!.:;–—-]|$)"
          // these read as content when no punctuation follows ("Thank you for the advice")
          + "|(?:also|thank you|thanks so much|thanks a lot|you know what|you know|i mean|no worries|for sure)"
          + "(?=[,!.:;–—-]))[\\s,!.:;–—-]*",
      Pattern.CASE_INSENSITIVE);
  /**
   * Requests to the other speaker that carry nothing to remember ("Let me know what you think",
   * "Keep me posted", "Feel free to ask"); the turn stays reachable through the raw-turn channel.
   */
  private static final Pattern REQUEST = Pattern.compile(
      "^(?:please\\s+)?(?:let me know|let \\w+ know|tell me|keep me (?:posted|updated|in the loop)|feel free|don't hesitate"
          + "|hit me up|stay (?:tuned|safe)|take care|say hi|send me)\\b",
      Pattern.CASE_INSENSITIVE);
  /** "Thanks (so much) for ...", "Thank you for ...": reported as "X thanks Y for ...". */
  private static final Pattern THANKS_FOR = Pattern.compile(
      "^(?:thanks|thank you)(?:\\s+(?:so much|a lot|again|too))?\\s+for\\s+", Pattern.CASE_INSENSITIVE);
  /**
   * Gerunds that open a subjectless "what I am doing" sentence ("Loving the new job!"); a gerund that
   * is itself the subject ("Reading calms me") is caught by {@link #GERUND_SUBJECT} first.
   */
  private static final Set<String> ACTIVITY_GERUNDS = Set.of("loving", "enjoying", "missing", "learning",
      "reading", "watching", "playing", "preparing", "training", "practicing", "studying", "volunteering",
      "saving", "taking");
  /** Adjectives that open a subjectless sentence about the speaker ("Glad you liked it", "So proud of you"). */
  private static final Set<String> FEELING_ADJECTIVES = Set.of("glad", "happy", "proud", "sorry", "thankful",
      "grateful", "stoked", "blessed", "busy", "ready", "sad", "bummed", "nervous", "curious");
  /** What follows such an adjective when it describes the speaker ("glad to", "proud of you"), not a noun ("busy week"). */
  private static final Pattern FEELING_FOLLOWER = Pattern.compile(
      "^(?:to|that|for|about|of|with|at|you|i|it|we|he|she|they|this|everything|things|my|your|our|how)\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern TRAILING_PUNCT = Pattern.compile("[\\s.!?…~]+$");

  private final EncodingConfig config;
  private final TemporalNormalizer normalizer = new TemporalNormalizer();

  @Inject
  public OfflineEncoder(EncodingConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  @Override
  public String name() {
    return "offline";
  }

  @Override
  public Encoding encode(Segment segment, ReferenceContext context) {
    List<String> speakers = speakers(segment, context);
    Map<String, MemoryRecord> records = new LinkedHashMap<>();
    List<String> warnings = new ArrayList<>();
    ThirdPersonResolver pronouns = new ThirdPersonResolver(speakers);
    for (RawTurn turn : segment.turns()) {
      pronouns.nextTurn();
      for (MemoryRecord r : encodeTurn(segment, turn, speakers, pronouns)) {
        records.remove(r.id());
        records.put(r.id(), r);
      }
    }
    String note = speakers.isEmpty() ? "" : "Speakers: " + String.join(", ", speakers);
    return new Encoding(new ArrayList<>(records.values()), note, TokenUsage.ZERO, 0, warnings);
  }

  private List<MemoryRecord> encodeTurn(Segment segment, RawTurn turn, List<String> speakers,
      ThirdPersonResolver pronouns) {
    String name = speakerName(turn);
    String addressee = addressee(turn, name, speakers);
    LocalDate day = turn.time() == null ? null : turn.time().toLocalDate();
    PhotoCaptions.Split split = PhotoCaptions.split(EncoderPrompt.body(turn));
    List<MemoryRecord> out = new ArrayList<>();
    for (String raw : Sentences.split(split.spoken())) {
      String sentence = clean(raw, speakers);
      if (!informative(sentence, speakers) || (turn.role() == Role.ASSISTANT && !addressesUser(sentence))
          || REQUEST.matcher(sentence).find()) {
        // a dropped sentence still introduces people that later pronouns may refer to
        pronouns.observe(pronouns.resolve(PersonRewriter.rewrite(sentence, name, addressee)));
        continue;
      }
      out.add(record(segment, turn, sentence, name, addressee, day, speakers, pronouns));
    }
    for (String caption : split.captions()) {
      String text = name + " " + PhotoCaptions.sharedPhrase(caption) + ".";
      List<String> entities = Keywords.entities(text, speakers);
      LinkedHashSet<String> tags = new LinkedHashSet<>(List.of("photo"));
      tags.addAll(Keywords.tags(caption, entities, config.maxTagsPerRecord()));
      List<String> kept = new ArrayList<>(tags).subList(0, Math.min(tags.size(), config.maxTagsPerRecord()));
      out.add(new MemoryRecord(null, segment.namespace(), MemoryType.FACT, text, entities, kept, TemporalScope.NONE,
          List.of(turn.ref()), segment.session(), segment.id(), sourceRole(turn), turn.time()));
    }
    return out;
  }

  private MemoryRecord record(Segment segment, RawTurn turn, String sentence, String name, String addressee,
      LocalDate day, List<String> speakers, ThirdPersonResolver pronouns) {
    Tense tense = Tense.of(sentence);
    List<DateMention> mentions = normalizer.find(sentence, day, tense);
    String dated = annotate(sentence, mentions);
    String rewritten = pronouns.resolve(PersonRewriter.rewrite(withImpliedSubject(thanked(dated, addressee), name),
        name, addressee));
    pronouns.observe(rewritten);
    Set<String> known = new LinkedHashSet<>(speakers);
    known.add(name);
    if (addressee != null) {
      known.add(addressee);
    }
    // entities before a "said that" prefix, so the sentence's own first word is judged in place
    List<String> entities = new ArrayList<>(Keywords.entities(rewritten, known));
    String text = finish(reported(rewritten, name, entities));
    if (!entities.contains(name) && text.contains(name)) {
      entities.add(0, name);
    }
    DateRange span = null;
    List<String> labels = new ArrayList<>();
    for (DateMention m : mentions) {
      if (m.dated()) {
        span = span == null ? m.range() : span.union(m.range());
        labels.add(TemporalNormalizer.label(m.range()));
      }
    }
    TemporalScope temporal = span == null ? TemporalScope.NONE
        : new TemporalScope(String.join("; ", new LinkedHashSet<>(labels)), "", "", span, false);
    TypeRules.Typed typed = TypeRules.type(sentence, tense, span != null);
    List<String> tags = new ArrayList<>();
    if (typed.plan()) {
      tags.add("plan");
    }
    tags.addAll(Keywords.tags(text, union(entities, known), config.maxTagsPerRecord() - tags.size()));
    return new MemoryRecord(null, segment.namespace(), typed.type(), text, entities, tags, temporal,
        List.of(turn.ref()), segment.session(), segment.id(), sourceRole(turn), turn.time());
  }

  /** Relative date expressions get their resolved date in parentheses right after them. */
  private static String annotate(String sentence, List<DateMention> mentions) {
    StringBuilder sb = new StringBuilder(sentence);
    for (int i = mentions.size() - 1; i >= 0; i--) {
      DateMention m = mentions.get(i);
      if (m.dated() && !m.absolute()) {
        sb.insert(m.end(), " (" + TemporalNormalizer.prose(m.range()) + ")");
      }
    }
    return sb.toString();
  }

  /**
   * "Thanks for the tips" becomes "I thank you for the tips", which the person rewrite turns into
   * "Rafael thanks Nadia for the tips". Left alone when the addressee is unknown.
   */
  private static String thanked(String sentence, String addressee) {
    Matcher m = THANKS_FOR.matcher(sentence);
    return addressee != null && m.find() ? "I thank you for " + sentence.substring(m.end()) : sentence;
  }

  /**
   * Chat often drops the subject ("Went hiking today.", "Love that painting!"): such a sentence
   * gets the speaker as subject. A leading gerund that is itself the subject ("Taking care of
   * yourself is vital") is left alone.
   */
  private static String withImpliedSubject(String sentence, String name) {
    String first = firstWord(sentence);
    String lower = first.toLowerCase(Locale.ROOT).replace('’', '\'');
    if (first.isEmpty() || lower.equals("i")) {
      return sentence;
    }
    String rest = sentence.substring(first.length()).stripLeading();
    if (lower.endsWith("ing") && GERUND_SUBJECT.matcher(sentence).find()) {
      return sentence;
    }
    if (OfflineLexicon.ADVERBS.contains(lower) && rest.startsWith("been ")) {
      return name + " has " + lower + " " + rest; // "Just been busy" -> "has just been busy"
    }
    String verb;
    if (lower.length() > 4 && lower.endsWith("ed") && ADJECTIVE_FOLLOWER.matcher(rest).find()) {
      verb = "is " + lower; // "Excited for the trip" -> "is excited"
    } else if (FEELING_ADJECTIVES.contains(lower) && FEELING_FOLLOWER.matcher(rest).find()) {
      verb = "is " + lower; // "Glad you liked it" -> "is glad"
    } else if (OfflineLexicon.SUBJECTLESS_STARTERS.contains(lower) || ACTIVITY_GERUNDS.contains(lower)
        || (OfflineLexicon.IRREGULAR_PAST.contains(lower) && !IMPERATIVE_LOOKING.contains(lower))
        || (lower.length() > 4 && lower.endsWith("ed"))) {
      verb = switch (lower) {
        case "gonna", "going", "thinking", "planning", "trying", "working", "looking", "heading", "hoping",
            "feeling", "getting", "having", "doing", "loving", "enjoying", "missing", "learning", "reading",
            "watching", "playing", "preparing", "training", "practicing", "studying", "volunteering", "saving",
            "taking" -> "is " + lower;
        case "been" -> "has been";
        case "wanna" -> "wants to";
        default -> PersonRewriter.thirdPerson(lower);
      };
    } else {
      return sentence;
    }
    return name + " " + verb + (rest.isEmpty() ? "" : " " + rest);
  }

  /**
   * A sentence that still does not name its speaker is reported: "Nadia said that ...". Its
   * first letter is lowered unless the first word opens a name ("Rowling's books ...").
   */
  private static String reported(String sentence, String name, List<String> entities) {
    if (Pattern.compile("(?<![\\w])" + Pattern.quote(name) + "(?![\\w])").matcher(sentence).find()) {
      return sentence;
    }
    String first = firstWord(sentence);
    String lower = first.toLowerCase(Locale.ROOT).replace('’', '\'');
    // a capitalised span may swallow a leading gerund ("Hearing David"): only a whole name counts
    boolean named = !first.isEmpty() && (entities.contains(first)
        || (!lower.endsWith("ing") && entities.stream().anyMatch(e -> e.startsWith(first + " "))));
    // a name that is also a common word ("Hope", "May", "Will") keeps its capital
    boolean common = !named && (OfflineLexicon.STOP_WORDS.contains(lower) || OfflineLexicon.CHIT_CHAT.contains(lower)
        || OfflineLexicon.NOT_TAGS.contains(lower) || OfflineLexicon.INTERJECTIONS.contains(lower)
        || lower.endsWith("ing"));
    String body = common ? Character.toLowerCase(sentence.charAt(0)) + sentence.substring(1) : sentence;
    return name + " said that " + body;
  }

  /** Capital first letter, one final full stop. */
  private static String finish(String sentence) {
    String s = TRAILING_PUNCT.matcher(sentence.strip()).replaceAll("");
    if (s.isEmpty()) {
      return s;
    }
    return Character.toUpperCase(s.charAt(0)) + s.substring(1) + ".";
  }

  /** Leading interjections, discourse markers and vocatives removed. */
  static String clean(String sentence, List<String> speakers) {
    String s = sentence.strip();
    boolean changed = true;
    while (changed) {
      changed = false;
      Matcher filler = LEADING_FILLER.matcher(s);
      if (filler.find() && filler.end() > 0 && filler.end() < s.length()) {
        s = s.substring(filler.end());
        changed = true;
        continue; // a filler may follow ("And thanks for asking"): phrases before single interjections
      }
      String first = firstWord(s).toLowerCase(Locale.ROOT);
      if (!first.isEmpty() && OfflineLexicon.INTERJECTIONS.contains(first)) {
        String rest = s.substring(firstWord(s).length());
        // "Thanks for the tips" is a thank-you with content, rewritten by thanked(), not a bare "Thanks!"
        boolean thanksFor = first.startsWith("thank") && THANKS_FOR.matcher(s).find();
        if (!thanksFor && (rest.startsWith(",") || rest.startsWith("!") || rest.startsWith(" "))) {
          s = rest.replaceFirst("^[,!\\s]+", "");
          changed = !s.isEmpty();
        }
      }
      for (String name : speakers) {
        if (s.startsWith(name + ",") || s.startsWith(name + "!")) {
          s = s.substring(name.length() + 1).strip();
          changed = true;
        }
      }
    }
    for (String name : speakers) {
      s = s.replaceAll(",\\s*" + Pattern.quote(name) + "\\s*(?=[.!?]*$)", "");
    }
    return s.strip();
  }

  private boolean informative(String sentence, List<String> speakers) {
    List<String> words = Keywords.words(sentence);
    if (words.size() < 3) {
      return false;
    }
    List<String> content = Keywords.contentWords(sentence, speakers);
    if (content.size() < config.minContentWords()) {
      return false;
    }
    if (sentence.endsWith("?")) {
      // a question is kept only when it also states something about the speaker
      boolean firstPerson = FIRST_PERSON.matcher(sentence.replaceFirst("^\\S+", "")).find();
      return firstPerson && content.size() >= 4;
    }
    return true;
  }

  private static boolean addressesUser(String sentence) {
    return SECOND_PERSON.matcher(sentence).find();
  }

  private static String speakerName(RawTurn turn) {
    if (turn.speaker() != null && !turn.speaker().isBlank()) {
      return turn.speaker().strip();
    }
    return turn.role() == Role.ASSISTANT ? "the assistant" : "the user";
  }

  /** The other party: the other of exactly two named speakers, or user/assistant for unnamed turns. */
  private static String addressee(RawTurn turn, String name, List<String> speakers) {
    if (turn.speaker() == null || turn.speaker().isBlank()) {
      if (turn.role() == Role.ASSISTANT) {
        return speakers.size() == 1 ? speakers.get(0) : "the user";
      }
      return turn.role() == Role.USER ? "the assistant" : null;
    }
    if (speakers.size() == 2 && speakers.contains(name)) {
      return speakers.get(0).equals(name) ? speakers.get(1) : speakers.get(0);
    }
    return null;
  }

  /** Named speakers of the segment, then those listed in the previous note, in first-seen order. */
  private static List<String> speakers(Segment segment, ReferenceContext context) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    if (context != null) {
      Matcher m = SPEAKERS_LINE.matcher(context.note());
      if (m.find()) {
        for (String n : m.group(1).split(",")) {
          if (!n.isBlank()) {
            names.add(n.strip());
          }
        }
      }
    }
    for (RawTurn t : segment.turns()) {
      if (t.speaker() != null && !t.speaker().isBlank()) {
        names.add(t.speaker().strip());
      }
    }
    return new ArrayList<>(names);
  }

  private static SourceRole sourceRole(RawTurn turn) {
    return turn.role() == Role.ASSISTANT ? SourceRole.ASSISTANT : SourceRole.USER;
  }

  private static String firstWord(String s) {
    Matcher m = FIRST_WORD.matcher(s);
    return m.find() ? m.group() : "";
  }

  private static List<String> union(List<String> a, Set<String> b) {
    LinkedHashSet<String> all = new LinkedHashSet<>(a);
    all.addAll(b);
    return new ArrayList<>(all);
  }
}
