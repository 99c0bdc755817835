/** The bundled restaurant world's lexicon: the words tests read restaurant speech with (docs/worlds.md "Vocabulary"). */
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { lexiconOf } from "../src/core/language/vocabulary";

export const RESTAURANT = lexiconOf(restaurantWorld);
