// English: every user-visible string of the web client, by key (see ../i18n.js), in three parts by screen.

import table from "./en/table.js";
import rooms from "./en/rooms.js";
import rules from "./en/rules.js";

export default { ...table, ...rooms, ...rules };
