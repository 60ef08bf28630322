// English: every user-visible string of the web client, by key (see ../i18n.js), in four parts.

import table from "./en/table.js";
import rooms from "./en/rooms.js";
import rules from "./en/rules.js";
import server from "./en/server.js";

export default { ...table, ...server, ...rooms, ...rules };
