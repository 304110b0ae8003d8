/*
 * Paths named in a config file: relative ones are taken against the
 * directory of the file that names them.
 */
#ifndef BENCHRACK_CONFIG_CFG_PATH_H
#define BENCHRACK_CONFIG_CFG_PATH_H

/*
 * Returns dir + "/" + path, or a copy of path when it is absolute or dir is
 * "" (the current directory). The caller owns the result (free()).
 */
char *br_cfg_path_resolve(const char *dir, const char *path);

/*
 * Returns the directory part of path: "" when it has no '/', "/" for a file
 * at the root. The caller owns the result (free()).
 */
char *br_cfg_path_dirname(const char *path);

#endif
