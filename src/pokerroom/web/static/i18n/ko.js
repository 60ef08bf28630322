// Korean, the default: every user-visible string of the web client, by key (see ../i18n.js), in three parts by screen.

import table from "./ko/table.js";
import rooms from "./ko/rooms.js";
import rules from "./ko/rules.js";

export default { ...table, ...rooms, ...rules };
