/**
 * Lychee's core: the facade ({@link dev.lychee.core.Lychee}), its configuration and Guice wiring.
 * The pipeline stages live in sub-packages named after what they hold.
 */
package dev.lychee.core;
