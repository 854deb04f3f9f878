package dev.lychee.core.encode;

import java.util.Set;

/** Word lists behind the offline encoder's rules. English only. */
final class OfflineLexicon {
  private OfflineLexicon() {}

  /** A set that tolerates repeated entries in the lists below. */
  private static Set<String> words(String... words) {
    return Set.copyOf(java.util.Arrays.asList(words));
  }

  static final Set<String> STOP_WORDS = words(
      "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at",
      "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
      "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has",
      "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if",
      "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor",
      "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out",
      "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs",
      "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too",
      "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who",
      "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "also",
      "i'm", "i've", "i'd", "i'll", "you're", "you've", "you'd", "you'll", "it's", "that's", "there's",
      "what's", "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "won't", "can't",
      "couldn't", "shouldn't", "wouldn't", "haven't", "hasn't", "let's", "he's", "she's", "we're", "they're",
      "we've", "they've", "we'll", "they'll", "us", "may", "might", "must", "shall", "get", "got", "getting",
      "go", "going", "gone", "went", "make", "made", "really", "even", "still", "always", "never", "ever",
      "much", "many", "lot", "lots", "thing", "things", "something", "anything", "everything", "nothing",
      "stuff", "way", "kind", "kinda", "sort", "gonna", "wanna", "gotta", "yeah", "like", "well", "maybe",
      "though", "although", "since", "yet", "already", "every", "one", "ones", "someone", "anyone",
      "everyone", "cause", "'cause", "u", "ur", "im", "dont", "its", "thats", "ive", "id", "ill", "here's",
      "who's", "where's", "when's", "how's", "and", "but", "or");

  /** Words that carry no memorable content in chat: greetings, reactions, fillers, praise. */
  static final Set<String> CHIT_CHAT = words(
      "hey", "hi", "hello", "thanks", "thank", "bye", "goodbye", "wow", "cool", "great", "awesome", "nice",
      "amazing", "congrats", "congratulations", "lol", "haha", "hahaha", "yes", "yep", "nope", "ok", "okay",
      "sure", "totally", "absolutely", "glad", "good", "super", "pretty", "definitely", "sounds", "sound",
      "seems", "wonderful", "fantastic", "incredible", "sweet", "lovely", "beautiful", "awesome", "oh", "ah",
      "aww", "omg", "hmm", "um", "uh", "hope", "see", "talk", "soon", "later", "care", "take", "keep",
      "luck", "welcome", "appreciate", "mean", "means", "guess", "know", "think", "feel", "feels", "true",
      "right", "exactly", "indeed", "agree", "stunning", "gorgeous", "cute", "fun", "happy", "excited",
      "proud", "dear", "buddy", "man", "dude", "wish", "best", "bet", "crazy", "tell", "look", "looks");

  /** Leading interjections removed before a sentence is rewritten. */
  static final Set<String> INTERJECTIONS = words(
      "wow", "oh", "hey", "hi", "hello", "yeah", "yes", "haha", "lol", "omg", "aww", "ah", "well", "so",
      "ok", "okay", "hmm", "um", "uh", "sure", "cool", "nice", "great", "awesome", "thanks", "yay", "ooh",
      "whoa", "woah", "gosh", "man", "dude", "honestly", "anyway", "anyways", "btw", "aw", "awww", "oops",
      "wowza", "yikes", "ahh", "ohh", "hooray", "congrats", "absolutely", "totally", "definitely");

  static final Set<String> ADVERBS = words(
      "also", "just", "really", "still", "never", "always", "usually", "often", "actually", "totally",
      "absolutely", "definitely", "truly", "sometimes", "finally", "recently", "even", "already", "only",
      "mostly", "probably", "seriously", "kinda", "sorta", "almost", "nearly", "honestly", "now", "then",
      "sure", "certainly", "especially", "currently", "lately", "once", "occasionally", "rarely");

  static final Set<String> MODALS = words(
      "can", "could", "will", "would", "should", "might", "must", "may", "shall", "can't", "cannot",
      "couldn't", "won't", "wouldn't", "shouldn't", "mustn't", "didn't", "wasn't", "had", "did", "was",
      "used", "gonna", "wanna", "gotta", "hadn't", "ought");

  static final Set<String> IRREGULAR_PAST = words(
      "went", "was", "were", "had", "did", "got", "made", "took", "saw", "met", "came", "felt", "found",
      "gave", "told", "ran", "began", "bought", "thought", "brought", "left", "said", "knew", "wrote", "won",
      "lost", "sold", "sent", "spent", "built", "taught", "caught", "fought", "held", "kept", "slept",
      "swam", "sang", "drove", "flew", "grew", "drew", "ate", "fell", "heard", "paid", "put", "set", "let",
      "cut", "hit", "quit", "read", "became", "forgot", "understood", "stood", "sat", "chose", "rode",
      "wore", "broke", "spoke", "woke", "threw", "shot", "led", "fed", "meant", "dealt", "lit", "hung");

  /** First words of subject-less chat sentences ("Went hiking today.") that take the speaker as subject. */
  static final Set<String> SUBJECTLESS_STARTERS = words(
      "gonna", "going", "just", "went", "got", "been", "had", "was", "love", "loved", "thinking",
      "planning", "started", "finished", "took", "made", "wanna", "trying", "working", "looking", "heading",
      "hoping", "feeling", "can't", "getting", "having", "doing", "still", "also", "really", "totally",
      "definitely", "currently", "spent", "visited", "attended", "joined", "bought", "tried", "saw", "met",
      "learned", "learnt", "enjoyed", "enjoy", "need", "needed", "want", "wanted", "plan", "hope");

  /** Words never used as tags: time words, numbers and generic verbs that say nothing about a topic. */
  static final Set<String> NOT_TAGS = words(
      "last", "next", "ago", "week", "weeks", "month", "months", "year", "years", "day", "days", "weekend",
      "weekends", "tonight", "morning", "evening", "night", "afternoon", "earlier", "later", "recent",
      "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "couple", "several", "given",
      "done", "without", "within", "past", "makes", "starts", "come", "comes", "give", "gives", "takes",
      "able", "better", "said", "says", "told", "wanted", "want", "wants", "need", "needs", "let", "lets",
      "tried", "try", "trying", "keeps", "put", "use", "used", "find", "found", "felt", "helps", "help",
      "others", "people", "time", "times", "today", "yesterday", "tomorrow", "sure", "able", "big", "little",
      "lot", "new", "old", "good", "bad", "hard", "long", "far", "whole", "each", "part", "amp", "shared",
      "showing", "photography");

  static final Set<String> CALENDAR_WORDS = words(
      "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february",
      "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
      "today", "yesterday", "tomorrow");
}
