# Statements sampled from SQLite's sqllogictest corpus (public domain), run as engine mysql.
# One statement per block; blocks are separated by a blank line.

CREATE TABLE t1(x INTEGER)

CREATE TABLE t2(y INTEGER PRIMARY KEY)

CREATE TABLE t3(z INTEGER UNIQUE)

INSERT INTO t5 SELECT * FROM t4

INSERT INTO t7 VALUES('c')

INSERT INTO t7 VALUES('b')

SELECT 1 IN (SELECT x+y FROM t1, t2)

SELECT 'b' NOT IN (null,'b','c','d')

SELECT 'g' NOT IN (SELECT * FROM t8n)

SELECT 'c' IN (SELECT * FROM t7n)

SELECT null IN (2,3,4)

SELECT 'a' IN (SELECT * FROM t7n)

SELECT 1 IN (SELECT * FROM t2)

SELECT null NOT IN (SELECT * FROM t8)

SELECT 1 IN (2,3,4,5,6,7,8,9)

SELECT null IN (SELECT * FROM t8)

SELECT 1 NOT IN (SELECT * FROM t5)

SELECT 1 IN (SELECT * FROM t4n)

SELECT 'a' NOT IN ('b','c','d')

SELECT x'303132' IN (SELECT * FROM t1)

SELECT null IN (SELECT * FROM t6n)

SELECT 'a' NOT IN (null,'b','c','d')

SELECT null IN (SELECT * FROM t6)

SELECT null IN (2,3,4)

SELECT 4 IN (SELECT * FROM t4n)

SELECT null NOT IN (2,3,4)

SELECT null NOT IN (SELECT x+y FROM t1,t2)

SELECT null NOT IN (SELECT * FROM t4n)

SELECT null NOT IN (SELECT * FROM t7n)

SELECT 1 IN (2,3,4,null)

SELECT 3 NOT IN (SELECT * FROM t4)

SELECT null NOT IN (SELECT * FROM t6n)

SELECT null NOT IN (SELECT * FROM t7)

SELECT 1.23 IN (SELECT * FROM t1)

SELECT 1 NOT IN (SELECT * FROM t1)

SELECT 'a' IN (SELECT * FROM t8)

CREATE TABLE t1( x INTEGER, y TEXT )

INSERT INTO t1 VALUES(1,'true')

INSERT INTO t1 VALUES(0,'false')

INSERT INTO t1 VALUES(NULL,'NULL')

SELECT 1 FROM t1 WHERE 1 IN (SELECT x,y FROM t1)

SELECT 1 FROM t1 WHERE NULL IN ( 1 )

SELECT 1 FROM t1 WHERE NULL NOT IN ( 1 )

SELECT 1 FROM t1 WHERE NULL IN ( 1.0 )

SELECT 1 FROM t1 WHERE 1 IN (SELECT 1)

SELECT 1 FROM t1 WHERE NULL NOT IN ( 1.0 )

SELECT 1 FROM t1 WHERE '1' IN ( NULL, '1' )

SELECT 1 FROM t1 WHERE '1' NOT IN ( NULL, '2' )

SELECT 1 FROM t1 WHERE 1 IN ( NULL, 1 )

SELECT 1 FROM t1 WHERE '1' IN ('2')

SELECT 1 FROM t1 WHERE 1.0 NOT IN (2.0)

SELECT 1 FROM t1 WHERE 1 NOT IN ( 1 )

SELECT 1 FROM t1 WHERE NULL IN ( NULL, '1' )

SELECT 1 FROM t1 WHERE NULL NOT IN ( NULL, 1.0 )

SELECT 1 FROM t1 WHERE 1 NOT IN ( NULL, 2 )

SELECT 1 FROM t1 WHERE 1.0 IN ( 1.0 )

SELECT 1 FROM t1 WHERE 1 IN (SELECT * FROM t1)

SELECT 1 FROM t1 WHERE '1' IN ( NULL, '2' )

SELECT 1 FROM t1 WHERE 1 NOT IN ( NULL, 1 )

SELECT 1 FROM t1 WHERE 1 IN (SELECT 1,2)

SELECT 1 FROM t1 WHERE 1.0 NOT IN ( 1.0 )

SELECT 1 FROM t1 WHERE 1 IN ( 1 )

SELECT 1 FROM t1 WHERE 1 IN ( NULL, 2 )

SELECT 1 FROM t1 WHERE '1' NOT IN ( NULL, '1' )

SELECT 1 FROM t1 WHERE NULL IN ( '1' )

SELECT 1 FROM t1 WHERE 1.0 IN ( NULL, 1.0 )

SELECT 1 FROM t1 WHERE '1' IN ( '1' )

SELECT 1 FROM t1 WHERE '1' NOT IN ('2')

SELECT 1 FROM t1 WHERE 1.0 NOT IN ( NULL, 1.0 )

SELECT 1 FROM t1 WHERE 1 IN (2)

CREATE TABLE t1( x INTEGER, y VARCHAR(8) )

INSERT INTO t1 VALUES(0,'false')

INSERT INTO t1 VALUES(1,'true')

INSERT INTO t1 VALUES(NULL,'NULL')

CREATE TABLE t1( x INTEGER, y VARCHAR(8) )

DROP TABLE t1

DROP TABLE t1

INSERT INTO t1 VALUES(NULL,'NULL')

INSERT INTO t1 VALUES(1,'true')

INSERT INTO t1 VALUES(0,'false')

CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab1(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab2(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

INSERT INTO tab0 VALUES(648,8087,8821.29,'zhvep',314,1055.44,'qkyyi')

INSERT INTO tab0 VALUES(851,6824,2258.49,'jeobh',4224,3085.57,'kiwaj')

INSERT INTO tab0 VALUES(587,4848,2599.25,'yqtbv',8458,8055.96,'avggb')

SELECT pk FROM tab1 WHERE (col3 > 4807) OR ((col3 >= 8315 AND col3 <= 5417))

SELECT pk FROM tab3 WHERE (col1 >= 3638.15 AND col1 <= 3865.60)

SELECT pk FROM tab4 WHERE (col4 > 6033.51 OR col4 <= 6407.52) AND (col0 < 7472) AND (((col0 < 9770))) AND (col0 >= 461 AND col3 IS NULL OR col4 = 6518.87) OR ((col1 <= 3160.51)) OR (((col1 = 9864.3 AND col1 > 6877.68 AND ((((col4 >= 1307.78) OR col3 > 3399)) OR col0 < 4570 AND (col0 = 6535))))) OR (col3 > 157 OR ((((col0 >= 750 AND col0 <= 90)))))

SELECT pk FROM tab4 WHERE (col1 < 540.55 OR col0 <= 2012 OR (((col1 <= 1661.60 OR (col0 >= 4765) AND (col0 = 958) OR col0 = 1319 AND (col1 >= 9398.62 AND col1 <= 7463.22) OR (col1 IS NULL) AND (((col3 < 6682) OR col3 = 9458 OR col1 = 3814.29 AND col1 > 5973.86 AND ((col4 >= 7238.32 AND col4 <= 5726.83))) AND (col0 >= 3605 OR (col0 < 2514 OR col0 >= 8145) OR col0 >= 3879) AND col3 = 3110) OR (((col3 >= 3637))) OR col1 <= 3860.37)) AND col0 > 1424))

SELECT pk FROM tab2 WHERE col0 BETWEEN 1164 AND 4608 AND ((col3 <= 1456 AND (col3 <= 8855) OR col0 > 9173 AND (col1 >= 7687.45))) AND (col0 > 4393)

SELECT pk FROM tab3 WHERE col3 BETWEEN 7462 AND 2086 AND col1 IS NULL AND (col3 < 8121) OR (((col3 = 8031))) OR (col0 IS NULL) AND (col3 = 1966)

SELECT pk FROM tab0 WHERE col4 BETWEEN 3861.58 AND 4123.22 AND (col3 >= 1894 AND col4 < 7558.77 OR ((col1 < 316.60) AND ((col0 > 1559 AND col0 <= 6811)) OR (col3 <= 195 AND col3 <= 9921 AND col3 >= 2445 AND col3 < 36 OR col0 < 2135 OR col0 >= 9748 OR (col0 >= 5040) AND (col3 = 9888) AND col4 > 4930.37)) OR ((col0 < 3758) AND col3 < 7983 OR (col3 >= 7799 OR (col3 >= 4325 OR col0 >= 6079) AND col0 >= 1728 AND (col4 = 131.85) AND col3 >= 1364 AND (col3 < 59)) OR col1 > 6063.79 OR col1 > 5397.66 AND ((col0 >= 3807) AND col4 < 2837.91) OR ((col3 <= 3706 AND col3 IN (9926,1244,9655,4475,3422) OR (col0 < 7191 AND ((col0 IN (9933,3308,1974,2702,6035,7395)))))) AND (col4 > 5515.91) OR (col3 = 5307))) OR ((col0 <= 7046 AND col3 IS NULL AND col1 >= 6507.78 AND (((col3 < 8750) AND col4 IS NULL OR col1 <= 4520.67) OR col0 IN (SELECT col3 FROM tab0 WHERE col1 <= 9472.57) AND ((col4 IN (7408.17,5945.70,6256.35,4757.83,5860.0))) OR col3 < 7947 OR col0 <= 4194 OR col3 < 7750 AND col1 <= 1611.71) OR col1 = 6820.49)) OR col3 >= 6583

SELECT pk FROM tab1 WHERE (col4 BETWEEN 5983.0 AND 2594.34) AND (col0 < 4044) OR col0 < 7973

SELECT pk FROM tab4 WHERE ((col3 > 1449) OR (col0 <= 3302)) AND ((col0 IN (9032,3129,8303,9872,433,8333))) OR (col3 >= 7200 AND col3 <= 7443) OR col0 < 5529 AND (col0 > 9298 AND (col0 < 3742 OR col3 > 1423)) OR col0 <= 1169 OR col3 > 9689 OR (col3 IN (5673)) AND (col0 > 45 AND (col1 < 1138.74)) OR (col1 IN (8259.60,7786.70,2643.72,9357.64,500.42)) OR col1 > 9723.20 OR (col0 >= 4036 AND col0 <= 1824) OR (col3 < 6236 OR col4 > 1709.25) OR col1 <= 9187.85

SELECT pk FROM tab1 WHERE (((((col0 BETWEEN 5490 AND 1096)) OR (col1 < 7755.97) OR col0 > 5395 OR col1 <= 769.43 OR col0 < 3956)))

SELECT pk FROM tab0 WHERE (col1 >= 3033.50 OR col3 < 4966 AND (col0 > 9344 OR col0 < 8800) AND col4 <= 1839.45 OR col3 < 8030 AND ((col0 < 7439 AND ((col3 >= 7045)) OR col3 < 3008))) OR (col3 > 4600 AND col4 > 9256.31) OR col0 >= 4136 AND ((((((col3 < 2438))) OR ((col3 <= 514))) AND (col4 >= 1310.79) AND (((col3 <= 7289)))) OR (((col3 >= 4611))) OR col3 IS NULL AND col3 = 9687 AND col4 IN (2100.35,1301.34) AND col0 >= 4483 AND col0 = 337 AND col0 >= 3569 AND (col3 >= 3289 AND col3 <= 9886) AND col0 IS NULL AND (col0 < 9091) OR col4 > 1287.0 OR (((col0 >= 9638))) AND ((col0 <= 1347) OR col3 IS NULL)) AND (col3 < 3241)

SELECT pk FROM tab3 WHERE col0 > 7738 AND (((((((((col0 IS NULL) AND (col0 >= 8537 AND col0 <= 1289)) OR col4 = 5665.89)))) AND col0 >= 5966) AND ((col1 >= 484.89 AND (col0 < 5355))) AND col0 > 197)) OR col3 <= 5319

SELECT pk FROM tab1 WHERE col0 > 5805 AND col3 BETWEEN 1102 AND 3793

SELECT pk FROM tab1 WHERE (col3 < 8720 OR (col3 = 2459 OR (col3 >= 7511 AND col3 <= 1820)))

SELECT pk FROM tab4 WHERE (col4 >= 6351.81 OR col3 >= 4810 AND ((col0 >= 761 AND col0 <= 619)) OR ((((col0 = 8903 OR (col0 >= 2210 AND col0 <= 5899) AND col0 >= 1495)))) OR col0 < 3645 AND col0 >= 8172)

SELECT pk FROM tab0 WHERE ((col3 <= 5698)) AND (((col0 BETWEEN 1100 AND 1624 OR ((col4 < 3198.96 AND col0 >= 4958)) AND col1 IS NULL)))

SELECT pk FROM tab3 WHERE (col4 > 6897.90 AND (col3 <= 2176 OR col0 <= 7441 AND ((col3 <= 370) AND (col4 < 8638.1)))) OR ((col1 >= 8125.99 AND col1 <= 3290.41) AND ((col0 > 4115))) AND col1 <= 8217.48 AND col0 >= 1394 OR col0 <= 5540

SELECT pk FROM tab0 WHERE col0 IS NULL AND col4 > 2069.41 OR (col0 >= 7514 AND col0 <= 9063) AND col0 <= 591 OR (col3 >= 2714 AND (((col0 >= 4496)) AND ((col0 <= 7235)))) AND col3 > 4753 AND ((col0 <= 1301 OR col1 < 9579.23))

SELECT pk FROM tab4 WHERE col3 > 9917 OR col0 > 6377 AND col4 >= 7726.90 AND (((col0 > 3747 AND col0 IN (4135,5971,3215) AND (col0 < 5556) OR (col1 > 8974.23 AND (((col0 >= 5161)) AND col3 > 3740 AND col3 < 8732 AND col0 BETWEEN 1032 AND 7681 AND col3 < 9026 OR (((((col3 = 185)) AND col4 > 9395.21 OR col3 <= 5989) AND col0 <= 475) AND col0 > 1938 AND col3 <= 6845) AND col3 < 3289)) AND col3 < 3656))) OR ((((((col0 > 9006)) AND col0 >= 7550) OR col1 >= 7747.12 AND (col4 > 4156.38 OR col3 > 2985 AND col1 > 517.2)))) AND (col3 > 1539)

SELECT pk FROM tab3 WHERE ((col4 >= 3484.44 AND col4 <= 8761.76) OR col0 >= 6069) OR col4 > 4833.3

SELECT pk FROM tab2 WHERE col0 IS NULL AND col4 > 2069.41 OR col0 BETWEEN 7514 AND 9063 AND col0 <= 591 OR (col3 >= 2714 AND (((col0 >= 4496)) AND ((col0 <= 7235)))) AND col3 > 4753 AND ((col0 <= 1301 OR col1 < 9579.23))

SELECT pk FROM tab3 WHERE (col0 >= 5385 AND col0 <= 7553) OR col3 < 356

SELECT pk FROM tab0 WHERE (((col0 < 2450) OR col4 > 9359.27 OR col0 = 5214 OR (col3 <= 6528 OR col0 < 6113)) OR col4 < 8098.95 AND col1 = 4017.58 AND col0 < 2027 AND col3 > 3720) AND ((((col3 < 1274 OR col1 = 6187.45 OR (col3 IN (7513,1896)))))) AND ((((col4 IS NULL) AND col4 > 3179.19 AND (col4 IN (2446.11,3223.88,1426.88,2224.5,2798.45,6621.25) AND col3 > 929 AND col4 = 5371.91) OR (col0 >= 9213 OR col3 > 9775 OR (col3 < 6231) AND col4 > 7739.48)))) AND col3 IS NULL AND (((((((col0 >= 2681 AND col0 <= 4695))))) AND col1 > 5018.88)) AND col3 > 9707

SELECT pk FROM tab2 WHERE ((col3 >= 5847 AND ((((col4 < 2026.62 OR col0 < 2568))) AND col0 >= 853 OR col1 < 1025.32 AND col1 > 9266.13) AND ((col1 < 5778.41) AND col4 < 1467.94) OR (col0 <= 6840 OR (col4 >= 4620.86 OR (col3 < 2039) AND col0 < 4609) AND ((((col0 > 1315 AND col0 >= 6438 OR col3 <= 4437))) AND (col4 = 7661.9 AND col3 IN (SELECT col0 FROM tab2 WHERE (col0 < 1435)) AND (col1 > 7082.66) AND col3 > 6682 OR col3 < 6471) AND col3 > 5217 AND (((((((col0 >= 2104)))) AND ((col3 >= 5508 AND col3 <= 9207) OR col1 >= 945.8) AND (col3 < 1275) AND col4 >= 6513.72 OR (col4 < 209.81))))) AND (col3 >= 6591)))) AND (((col4 < 1780.25)))

SELECT pk FROM tab3 WHERE col0 > 612 OR (((((col0 > 9709) AND col4 <= 6412.94 AND (((col4 BETWEEN 4967.31 AND 4929.1) OR col3 IN (8227,2280,7737,4626,858,6443) AND col3 = 4649)) AND ((col3 = 5422 OR col0 < 3795 AND (col3 > 4548))) AND col3 >= 5340 AND col1 IN (2810.2,8866.58,5511.75,2994.73,3930.55,9527.0) OR ((col1 IS NULL) OR col4 < 8779.77 OR col0 >= 8606 AND col3 IN (1066,7155,4441) AND col3 < 8065 AND ((col4 >= 4685.37 AND col0 > 1593 OR col0 IS NULL AND col0 IS NULL OR (col1 <= 340.71) AND col4 > 9001.18)) AND col3 > 3298 AND col1 <= 9700.41) OR col1 >= 105.78)))) AND col4 IN (399.50,9624.48,1551.31,62.17,8025.22) OR (col1 = 8667.22) AND col4 < 7966.65

SELECT pk FROM tab1 WHERE (col1 >= 2691.53 AND col1 <= 334.13) AND (col3 IN (8499) AND (col0 = 182))

SELECT pk FROM tab0 WHERE (col0 <= 8175 AND col3 = 4597) AND ((col3 > 867 AND (col0 >= 5644 AND col0 <= 2203) AND (col0 >= 2064 AND col3 = 5372) AND (col0 <= 1828) OR col3 > 3117 AND col3 > 5375 AND col0 > 3210 OR (col3 > 6371) AND col3 BETWEEN 4240 AND 5342 OR col1 BETWEEN 737.69 AND 5363.99 AND col4 >= 4394.55 OR col3 = 439 AND ((col3 > 346)) OR col3 > 4320 AND ((col1 >= 3828.43) AND col0 = 2152) AND col0 IN (2902,7696,4553)))

SELECT pk FROM tab3 WHERE ((col0 < 2724 AND ((col1 IN (3629.84,5286.61))) AND ((col0 >= 7706)) AND col4 BETWEEN 9814.7 AND 2991.40))

SELECT pk FROM tab3 WHERE ((((col4 > 4817.41 AND col3 > 420) OR col0 IN (6258,1665) AND (((col4 <= 5594.12 OR ((col0 >= 3316 AND col0 <= 4647)) OR (((col4 = 3007.78))) AND col4 >= 6648.24 AND col4 <= 4013.80 AND col0 IS NULL OR ((col3 IS NULL) AND ((col0 IN (7976,9462,2469,9916))))))) AND col0 = 5725 AND (col3 > 9693 AND col4 < 4340.84) AND (col3 > 6127) AND (((col1 >= 2870.62 AND col0 <= 2733 AND col0 > 1318 OR col3 < 8493) AND ((col3 > 8071 OR col0 <= 645 AND ((col1 IS NULL))))) OR (col0 < 7684) AND col3 > 5578 AND col0 <= 2850) OR col0 < 2846) OR ((col1 > 3654.23)))) AND ((((col0 > 6522)) OR (col0 < 7783 AND col4 IN (1534.34)))) AND col3 > 7637 AND col1 >= 6291.61

SELECT pk FROM tab4 WHERE ((col1 = 9256.66)) OR ((col1 = 4913.99)) AND col0 > 5986 OR col3 > 2409 OR ((col0 > 5863) AND col3 IS NULL) OR ((col4 IS NULL) OR col0 > 9550 OR col3 < 6300) OR (col0 >= 7778) AND col1 < 9079.55 OR (col1 IS NULL) AND (col4 < 3051.56) AND col0 > 7546 OR col1 >= 4828.15 OR (col3 IS NULL AND col4 = 4458.58) AND col3 > 7804 OR col3 IS NULL AND col0 < 7752 AND (col0 BETWEEN 8983 AND 3948) AND col4 < 2411.55

CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab1(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab2(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

INSERT INTO tab0 VALUES(0,86,94.96,'vuopk',91,47.78,'sikuk')

INSERT INTO tab0 VALUES(1,37,20.85,'zfuqj',30,10.69,'rtcha')

INSERT INTO tab3 SELECT * FROM tab0

SELECT pk FROM tab3 WHERE col0 <= 14

SELECT pk FROM tab2 WHERE col4 <= 69.82

SELECT pk FROM tab2 WHERE col3 < 0

SELECT pk FROM tab1 WHERE ((23 < col0))

SELECT pk FROM tab1 WHERE 60 < col3

SELECT pk FROM tab3 WHERE (17 > col3) OR 13 < col3 OR 92 > col3

SELECT pk FROM tab2 WHERE 77 <= col3

SELECT pk FROM tab4 WHERE (93 <= col3) AND 19 <= col3

SELECT pk FROM tab2 WHERE (29 <= col0) AND (5.44 > col1) AND 93.47 < col4 AND (10.36 >= col4 AND ((92 < col0))) AND col0 IS NULL

SELECT pk FROM tab3 WHERE 8.6 < col4 AND 50 <= col3 AND (81.21 <= col4) OR 39.59 > col4 AND 77 > col3

SELECT pk FROM tab0 WHERE (50 <= col0) AND col3 IS NULL OR (col3 IN (11,84,33,92) AND ((38 > col3))) OR 89 < col0 OR 41.60 < col1 AND (30 > col3) AND ((56.71 > col4)) AND 97 > col3 OR 6 <= col0 OR (64.99 < col1) AND ((78 > col0)) AND 88 < col0 AND 95 > col0 AND 97 > col3 AND 64 < col3 AND 86 < col0

SELECT pk FROM tab0 WHERE 39 > col3

SELECT pk FROM tab3 WHERE col1 > 23.83

SELECT pk FROM tab4 WHERE 20 < col0

SELECT pk FROM tab1 WHERE col3 < 93

SELECT pk FROM tab1 WHERE 31.40 > col1

SELECT pk FROM tab0 WHERE col1 >= 63.69

SELECT pk FROM tab3 WHERE 49 >= col3

SELECT pk FROM tab4 WHERE (((col3 BETWEEN 58 AND 94 AND ((82.82 >= col4 AND 42 > col0 AND col1 BETWEEN 61.5 AND 44.56 AND (62.46 > col1 OR (17 < col0) AND (44 < col3) OR 74 > col0) AND (92.21 <= col4 AND 45.87 < col1 AND col4 IS NULL AND 56.1 > col4 OR 95.79 > col1) AND (col3 BETWEEN 18 AND 19) OR (84.96 <= col4))))))

SELECT pk FROM tab1 WHERE col4 IN (SELECT col1 FROM tab1 WHERE col4 >= 24.63) OR (((col3 IN (21) OR col3 <= 6)))

SELECT pk FROM tab0 WHERE (col0 < 76) OR col1 < 6.71 OR (col3 > 61) OR (col3 = 39) AND (col1 > 99.78 AND (col1 > 10.51 AND col3 > 93)) OR (col1 <= 84.25) OR (col4 > 44.9)

SELECT pk FROM tab3 WHERE 48 >= col0

SELECT pk FROM tab2 WHERE (col1 <= 33.69 AND col4 < 35.81)

SELECT pk FROM tab2 WHERE col3 <= 43

SELECT pk FROM tab1 WHERE 59 <= col0 OR 84 >= col0 AND 88 < col3 AND 72.84 = col4 OR 34.30 <= col4

SELECT pk FROM tab1 WHERE 83.82 > col4

SELECT pk FROM tab3 WHERE 23 < col0

SELECT pk FROM tab0 WHERE col0 < 38

SELECT pk FROM tab4 WHERE col0 > 53

SELECT pk FROM tab2 WHERE col3 IN (29,31,27,65,23,39) OR col1 = 71.68 OR ((col3 >= 37)) OR ((col3 <= 85 OR col3 > 25 AND ((col0 > 23)))) OR col1 > 70.83 AND (col3 < 66) AND col0 > 88 OR col1 > 91.36

CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab1(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab2(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

INSERT INTO tab0 VALUES(8,56,40.57,'qejga',22,81.4,'wkobf')

INSERT INTO tab0 VALUES(5,17,93.85,'qcnwy',77,68.79,'cyiry')

INSERT INTO tab0 VALUES(0,90,31.3,'yutgr',57,52.72,'ongxg')

SELECT pk FROM tab2 WHERE ((((((col3 >= 10)) AND col1 IS NULL OR col4 > 55.18 AND col0 > 85 AND (col3 <= 84) OR col1 IN (66.40,79.19,48.59,54.2))) OR (col1 >= 26.57) OR col0 IN (32,21,9))) OR ((col3 BETWEEN 93 AND 62 AND col3 < 89) AND col3 > 42)

SELECT pk FROM tab2 WHERE col3 IN (42,89,14,16,26,59)

SELECT pk FROM tab4 WHERE col1 IN (98.44,53.57,66.6,67.91,4.32) AND ((((col0 = 94))) AND col3 IS NULL)

SELECT pk FROM tab4 WHERE col3 IN (49,38,91,96)

SELECT pk FROM tab1 WHERE col4 IS NULL AND ((col1 IN (49.88,63.78,65.41,8.99,79.89))) OR col0 <= 60 OR ((col0 > 69))

SELECT pk FROM tab2 WHERE ((col1 = 73.49 OR ((col4 = 93.1 AND col0 > 10)) AND (((col4 < 89.80)))) OR ((col4 IS NULL OR ((col1 = 44.59 OR col1 = 75.39 OR col1 = 84.48 OR col1 = 11.52 OR col1 = 90.80 OR col1 = 46.21) OR ((col1 = 85.32 OR ((col4 = 32.64)) AND col3 IS NULL AND col0 IN (SELECT col3 FROM tab2 WHERE col0 = 72 OR (col0 < 59 AND col3 < 2) AND ((col3 <= 39))))) AND (col3 > 4) AND col0 >= 82)) AND col3 >= 15 AND (col4 < 49.15) AND col3 <= 76)) OR col3 >= 31 OR ((col1 > 29.16))

SELECT pk FROM tab2 WHERE ((col0 = 42 OR col0 = 25 OR col0 = 76 OR col0 = 51 OR col0 = 3) OR col3 = 45) OR col1 > 21.67 AND col3 >= 79 OR (col3 <= 56) AND ((col4 > 58.14))

SELECT pk FROM tab3 WHERE ((((col3 >= 17) AND (((col3 >= 76 OR ((col4 < 53.50))))) AND col0 >= 73 OR (((((col1 > 45.58))))) OR col4 >= 68.65))) OR col1 < 72.91 AND col3 IN (0,98,98,76) AND ((col0 > 13) AND col0 = 84) OR ((col4 <= 69.50) OR (col3 IS NULL))

SELECT pk FROM tab0 WHERE col3 > 13 AND col3 > 60 OR col0 < 56 OR col0 = 50 AND (col0 >= 94 AND col0 IN (SELECT col3 FROM tab0 WHERE col4 IS NULL AND col0 > 62 AND col3 >= 97 OR (col4 > 31.36) AND (col4 > 28.89))) AND col3 > 25 AND ((col1 < 40.47)) OR col3 < 89 OR col4 IN (62.57,60.34,9.52,13.53,15.21)

SELECT pk FROM tab1 WHERE ((((((col3 <= 49)))) AND col4 IS NULL AND ((col3 > 8 OR (col4 >= 82.18) OR ((col0 > 87)))) AND col0 > 6) AND (col0 IS NULL AND col1 = 1.88) AND (((col4 < 56.25) AND (((col1 = 90.77))) OR col0 IS NULL AND col3 IS NULL) AND ((col4 IN (62.14,41.77,35.53,14.79,24.41,76.12))))) AND ((((((col4 <= 83.43))) AND col3 > 62) AND col0 BETWEEN 29 AND 91 AND (col3 > 83) OR col4 < 3.32 OR (col0 <= 51) OR col1 >= 48.59 OR col0 > 48) AND ((((col3 < 60 OR col0 = 84) OR col3 >= 43))) AND col3 > 22 OR col3 > 53)

SELECT pk FROM tab2 WHERE ((col3 IN (35,63,38)) AND col3 > 28)

SELECT pk FROM tab0 WHERE ((col3 IN (35,63,38)) AND col3 > 28)

SELECT pk FROM tab0 WHERE ((((col4 <= 4.99 OR ((col3 < 21 AND ((col0 > 86) AND col4 IN (92.72,37.58,92.17,75.7))) AND ((((((col0 = 65 AND col1 = 71.82 AND ((col4 < 39.85)) OR col3 > 7 AND ((((col3 < 14)))) AND ((col0 < 20))) OR col4 < 97.39 AND col1 >= 17.64 OR col3 <= 22 AND ((col4 = 96.94)) AND col0 > 62 AND col4 <= 70.11 AND ((col0 > 10)) AND col0 <= 80))))))))))

SELECT pk FROM tab3 WHERE col4 IS NULL AND ((col4 < 49.76 AND ((((col1 IN (51.73,71.95,60.84)) AND col0 IN (42) OR col0 > 29 AND col3 < 43 AND (col1 > 48.37 AND col0 > 78 AND (col0 <= 79) AND col0 > 20 OR (col0 IN (86,43,73,73,65)) AND col0 <= 30 OR col0 IN (38,12,77) OR (col4 IS NULL) AND col3 > 38 OR col1 >= 53.56) OR (col0 <= 41) AND (col0 < 42) AND col3 < 15 OR col0 >= 95)))) OR col1 IS NULL AND (col0 >= 45 OR ((col1 IN (82.59,59.37)) AND col0 < 22 OR ((((col0 >= 34 OR col4 <= 69.15 AND (col4 >= 75.64 AND (col4 < 9.39)) OR col1 > 58.57 OR col4 <= 35.89 AND col3 IN (86,41,26,89,91,19) OR col4 < 47.96 OR col3 > 82 AND col4 IN (26.18) AND (col3 < 8) OR col0 > 57 OR col3 IN (92)) AND (col1 IN (35.7,68.44,93.15,36.37) AND (col1 > 65.58 OR col3 > 80 AND (col3 > 53) OR col0 = 22))) AND col3 >= 1)) AND (((col0 >= 73) AND col4 > 20.27) AND col4 <= 5.95 OR col3 = 66)) OR col3 > 90 AND col3 IS NULL) OR col0 <= 51) AND col0 <= 7 AND col1 < 91.37 AND (col3 BETWEEN 7 AND 8) AND col3 > 71 OR (col3 >= 8) AND (col0 > 20 OR col1 < 70.20)

SELECT pk FROM tab3 WHERE ((col0 <= 60 OR col1 >= 68.69 AND col3 < 8) OR col3 > 83 AND col4 > 25.85 AND col3 > 22) AND col4 IN (SELECT col1 FROM tab3 WHERE col1 <= 51.73 AND col0 BETWEEN 84 AND 61 OR (col0 = 89) OR col4 IS NULL AND (((col3 < 49 OR (col0 < 22))) OR col1 IN (74.95,19.51,19.41,98.12,40.29,89.74)))

SELECT pk FROM tab1 WHERE ((col3 > 9 AND col0 IS NULL AND (((col1 > 5.66))) AND col3 IS NULL) OR col0 IN (4,23))

SELECT pk FROM tab3 WHERE ((col1 = 73.49 OR ((col4 = 93.1 AND col0 > 10)) AND (((col4 < 89.80)))) OR ((col4 IS NULL OR ((col1 = 44.59 OR col1 = 75.39 OR col1 = 84.48 OR col1 = 11.52 OR col1 = 90.80 OR col1 = 46.21) OR ((col1 = 85.32 OR ((col4 = 32.64)) AND col3 IS NULL AND col0 IN (SELECT col3 FROM tab3 WHERE col0 = 72 OR (col0 < 59 AND col3 < 2) AND ((col3 <= 39))))) AND (col3 > 4) AND col0 >= 82)) AND col3 >= 15 AND (col4 < 49.15) AND col3 <= 76)) OR col3 >= 31 OR ((col1 > 29.16))

SELECT pk FROM tab0 WHERE (col3 > 14) AND (col1 >= 26.70 AND (col4 > 27.97 AND (((col0 < 0 OR (col3 > 80 OR col1 BETWEEN 34.51 AND 67.63 OR col4 >= 1.28 AND col3 < 48 AND col3 > 24 OR (col3 > 6) AND col3 > 7 AND (((((col0 > 53) AND (col0 >= 59)) AND col1 < 86.70 OR (((col0 > 53 OR (((col3 = 77 OR col3 = 31 OR col3 = 15))) OR ((col4 <= 34.21 AND ((col4 >= 27.89) OR col3 < 30 OR col3 <= 87) OR ((col3 < 54)) OR col1 > 36.15 AND ((((col3 < 71))))) AND col3 >= 2 AND col0 >= 66 AND col1 < 45.19)) AND col0 <= 14 AND col1 IS NULL OR ((col3 < 69)) AND ((col3 <= 15) AND col3 < 13 OR ((col0 >= 73 OR col3 >= 88) AND col0 >= 99) AND col4 >= 18.18 AND (((col4 >= 61.60)) OR (col4 > 22.99))) AND col3 < 65)) OR col3 >= 67 OR col3 < 79 AND col3 = 20 OR col3 IS NULL) AND (col3 > 24) OR ((col4 > 23.43)) AND (((col1 < 10.5 OR col3 < 42 AND col3 BETWEEN 67 AND 56))) OR (col0 > 21 AND ((((col0 < 17 OR col0 >= 18 AND col4 >= 34.48 AND (col0 >= 87) AND col4 IS NULL OR col1 > 65.66 AND ((col4 > 88.51 AND col3 >= 74)) AND col4 BETWEEN 38.55 AND 61.12))))) OR col3 > 21 OR (col0 >= 16 AND (col3 <= 18) OR col4 IS NULL OR ((col3 >= 81)) AND col3 < 10 OR (col1 > 75.91) AND col3 < 4) OR (col3 <= 75) AND col3 > 75 AND col3 > 3 AND ((((col1 < 12.81)))) OR (col3 > 0) OR (((((col3 > 13 OR ((((col3 BETWEEN 31 AND 12)) AND (col3 IS NULL) AND (((((col3 IS NULL)))) OR col0 >= 66) AND ((col4 >= 39.46) AND col3 < 9 AND (col0 > 28 AND col0 >= 46)) AND (col4 < 25.45) AND ((col0 < 97 AND (col3 > 47))) AND col0 <= 38 AND ((col1 = 38.83)))) OR (col0 < 9) OR col3 < 65 AND (((col3 < 37 AND ((col0 BETWEEN 43 AND 0)) OR (col3 = 21 OR col3 = 89 OR col3 = 89 OR col3 = 28 OR col3 = 87) OR col4 > 37.82 OR col0 > 78 AND (col1 <= 82.72)) AND col4 >= 81.23 OR col4 = 97.62 OR col0 <= 81) OR col0 = 84 OR col1 < 93.0 AND col4 >= 49.72 AND ((col3 >= 6)) AND col3 > 57 OR col4 <= 54.75 AND (col3 IS NULL) AND (col0 IS NULL) AND col4 >= 72.13)) AND col4 <= 29.76 OR ((col3 = 61)) AND col3 > 96) AND col3 <= 0 OR col4 < 42.20 AND col4 IS NULL OR col3 > 78))) AND col3 > 7 AND col1 >= 20.34 AND col3 > 43 AND (col0 = 90 OR col0 = 20) AND (col3 > 47))) AND (((col3 <= 77 AND col0 > 42)) OR col0 > 32 AND col3 IS NULL OR (col1 < 65.24))) AND ((col3 = 97 OR col3 = 73 OR col3 = 22 OR col3 = 99 OR col3 = 98 OR col3 = 55) AND col3 >= 77 AND col1 <= 22.7))))) AND col0 <= 48 AND (col0 = 78) AND ((col3 IN (SELECT col0 FROM tab0 WHERE col3 >= 91 AND (col1 <= 63.61) AND (col3 < 0) OR ((col3 = 1 OR col3 = 65 OR col3 = 14 OR col3 = 2 OR col3 = 14)) AND col0 < 50)) AND (col4 >= 74.96) OR ((((col0 < 11)))) OR col0 < 82 AND col1 IS NULL AND col0 IS NULL) AND ((((((col1 < 44.61 OR col0 >= 3))))) OR col0 > 8 AND col0 IS NULL AND (col0 = 19) AND (((col4 >= 98.28))) AND (col3 > 48 AND col0 >= 77) AND col4 <= 84.83 OR col4 >= 66.80 OR col0 = 10 AND (col3 > 61 OR ((col1 > 86.65 AND ((col4 = 90.25))) OR (col4 IS NULL) AND col1 > 68.6 AND (((((col0 < 69 OR col0 > 29 AND (col0 < 74) OR col0 > 41 OR (col4 <= 78.3 AND (col3 < 19 OR col1 > 39.31 OR ((((col0 >= 7)) AND ((col0 = 47)) OR col1 > 44.64 AND col0 >= 57)))) AND col3 > 94) OR col3 < 41) AND (col0 < 79)))) AND col1 > 48.68 OR col4 <= 94.32 AND col0 = 67 OR col3 = 78 AND col4 IS NULL OR (((col3 > 30 OR col4 BETWEEN 75.75 AND 67.37 AND col3 > 61) AND col3 > 32 OR col3 <= 79 AND col4 < 76.9)) AND col1 > 29.25 AND col0 >= 11 AND col3 < 0 OR col4 > 83.77 AND (col0 > 54) AND ((((col3 > 92) OR (col1 > 55.42)) OR (col3 < 44))) AND col4 > 77.67 AND (col0 >= 23) OR (col1 = 77.70 OR col1 = 29.45 OR col1 = 10.23) AND col4 >= 6.50 OR col3 IS NULL) AND ((col0 < 76))) OR ((col1 > 34.97 OR col0 <= 71 OR col4 BETWEEN 72.36 AND 79.25 AND col4 = 44.98)) AND col0 > 26 AND col0 >= 62 OR col3 >= 95)) OR col4 > 27.19

SELECT pk FROM tab1 WHERE (col1 < 97.73 OR col1 > 73.48 OR (col0 >= 73 OR col3 >= 65 OR col4 < 52.55) OR (((col1 > 5.98) OR (((col4 = 72.2) OR col1 >= 5.58 AND (col4 = 93.28 AND col3 < 55 OR col0 <= 59 AND (col4 < 77.70)) OR col0 < 68)) OR (col4 <= 8.34) OR col3 >= 15)) OR ((col3 = 86) AND (col1 > 7.75) AND col1 > 81.37)) AND col3 >= 15 AND (((col1 > 35.41))) OR col4 > 21.40 AND col1 IN (37.65,31.51,35.43) AND col4 < 42.95

SELECT pk FROM tab1 WHERE (col3 < 5 OR (col1 IN (79.66,26.28,35.48,62.56,52.59) AND col0 < 2 OR col0 IS NULL AND col3 >= 14))

SELECT pk FROM tab1 WHERE col4 IN (61.2,31.68,48.31,62.81,97.30,27.38) OR (col3 > 37 AND col4 >= 32.0 AND ((((col3 > 60 AND (((col4 > 22.74 AND col4 = 88.16 AND (((col1 < 82.43)) AND (col3 < 53) AND col4 < 93.85)) AND col3 BETWEEN 58 AND 63 OR ((col1 <= 36.62) OR col3 <= 31 OR (col4 > 64.10)) OR (col0 <= 39 OR (col1 = 69.65)) AND col4 IS NULL) OR col0 > 91))) AND (col3 >= 23) AND (col1 = 13.49) AND col4 > 59.78 OR (col3 <= 31) OR (col0 < 0 AND col0 > 22) AND col4 >= 62.78 OR col4 BETWEEN 34.39 AND 69.50) AND col1 < 48.30) AND col3 >= 58 OR (col4 < 87.36) AND ((((((col3 > 46 AND (col1 >= 17.32) OR col4 <= 91.21)))))) AND ((col3 > 33)) AND col3 >= 39 AND (col4 >= 90.12 AND col0 >= 64 OR col0 >= 91) AND col3 < 39 OR col0 <= 78 OR col1 > 17.10) OR col0 = 35 AND col4 IN (26.4,79.20,89.68,12.36,3.86) AND col3 <= 94

SELECT pk FROM tab2 WHERE col0 IN (12,10)

SELECT pk FROM tab0 WHERE col0 < 82 OR ((((col0 = 78 OR col0 = 55) OR col1 < 49.3) OR col4 < 44.41)) AND (((col0 = 49))) OR col3 > 46 AND col0 > 24 OR col3 > 79

SELECT pk FROM tab1 WHERE col4 > 91.49 AND (col0 = 69) OR col3 > 46 AND col3 = 6 OR (col1 > 67.76 AND (col0 = 2 OR col0 = 99 OR col0 = 74)) OR (col3 > 11)

SELECT pk FROM tab4 WHERE (col1 = 51.80 OR col1 = 20.2 OR col1 = 80.10)

SELECT pk FROM tab2 WHERE col4 IS NULL OR (col4 >= 88.53) AND col3 < 81 AND col3 IS NULL AND ((col3 IS NULL) AND col3 >= 1) OR col4 BETWEEN 84.25 AND 86.68 OR col1 < 67.62 AND col1 <= 12.60 AND col1 < 31.82 OR (col0 > 3 AND ((col0 > 37 OR col4 >= 65.80 AND ((col4 > 34.93)) OR (col0 = 44) OR (col1 = 37.66 OR col1 = 77.37 OR col1 = 2.96 OR col1 = 65.25 OR col1 = 98.71) AND col4 IS NULL OR col3 IN (SELECT col0 FROM tab2 WHERE col1 < 5.11 AND col0 = 54 AND col4 >= 43.86) AND col0 IN (SELECT col3 FROM tab2 WHERE col1 < 58.65) AND ((col1 > 12.3)) AND col0 = 16)) OR col1 < 88.4) OR col0 = 97 AND col0 = 47 AND (col4 >= 43.28) OR col3 <= 88 OR col4 < 25.16 AND ((col3 >= 20 AND col3 < 37 OR col4 > 14.77)) OR col3 > 96 AND col0 >= 29 OR col0 > 55

SELECT pk FROM tab3 WHERE ((((((col4 IS NULL))) OR (col4 < 5.2) AND (((col4 IS NULL) AND (col0 = 89 AND col0 BETWEEN 96 AND 20) OR col0 > 85)) OR col0 IS NULL AND (col0 > 24) OR (col0 > 99) OR col0 >= 67 AND ((col4 IS NULL)) AND col0 > 40 AND col3 > 43 AND (col1 > 30.55 OR ((col3 = 2) OR col3 > 55 OR col1 > 61.25) OR ((col3 IS NULL) AND (col4 >= 44.51 OR col0 < 63 OR (col0 < 34) AND col0 >= 12 AND col3 > 94 OR col3 > 95 AND col4 <= 33.58 AND col3 > 94 AND (col3 < 74) OR col1 = 19.34 OR col3 < 14 AND col3 > 75 AND ((col3 <= 62)) AND (((col1 = 39.35) AND (col1 <= 15.60)) OR col1 > 33.94))) OR (col0 = 61 OR col0 = 72 OR col0 = 45 OR col0 = 57)))))

SELECT pk FROM tab2 WHERE col1 <= 16.99 AND ((((col3 = 31 OR col0 < 12) OR col0 < 74 OR col1 > 16.33 OR ((col1 = 73.81 OR col1 = 53.33 OR col1 = 38.91)) AND (((col1 >= 35.67))) OR col0 = 85))) AND (col3 = 94)

SELECT pk FROM tab1 WHERE (col4 = 74.37 OR col4 = 37.12 OR col4 = 39.9 OR col4 = 5.38 OR col4 = 68.30 OR col4 = 42.57) AND col1 >= 77.97

SELECT pk FROM tab2 WHERE col3 IS NULL OR col3 IN (28,56,96,0,82,12)

CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab1(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab2(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

INSERT INTO tab3 SELECT * FROM tab0

INSERT INTO tab0 VALUES(5,309,912.32,'iganw',957,707.84,'tewpl')

INSERT INTO tab0 VALUES(9,297,993.36,'eoujh',105,829.18,'kvyce')

SELECT pk FROM tab2 WHERE col1 > 722.42 ORDER BY 1

SELECT pk FROM tab1 WHERE (col4 > 258.74) ORDER BY 1 DESC

SELECT pk, col0 FROM tab4 WHERE (col0 <= 754) OR col4 >= 471.17 OR col4 <= 64.98 OR col4 = 447.54 OR (((col4 IS NULL))) AND col4 BETWEEN 770.34 AND 297.35 AND (((col0 < 240) AND col4 >= 816.43 AND col0 = 916)) ORDER BY 1,2

SELECT pk, col0 FROM tab3 WHERE (((col4 > 664.36) AND ((col0 = 859) OR col0 < 78 AND ((col3 = 525)) AND (col4 < 26.9 OR (col0 > 437) AND col3 >= 464 AND col0 < 994))) AND col0 < 427 AND col3 > 184) ORDER BY 1,2 DESC

SELECT pk, col0 FROM tab1 WHERE col0 < 551 OR (col0 < 790) ORDER BY 1

SELECT pk, col0 FROM tab1 WHERE (((col3 < 729) OR col0 > 814)) ORDER BY 2

SELECT pk, col0 FROM tab3 WHERE ((((col3 < 707)))) ORDER BY 1 DESC,2

SELECT pk, col0 FROM tab4 WHERE col3 < 152 ORDER BY 1,2 DESC

SELECT pk, col0 FROM tab2 WHERE col0 <= 587 ORDER BY 1 DESC,2 DESC

SELECT pk, col0 FROM tab1 WHERE col4 < 379.35 ORDER BY 2,1

SELECT pk, col0 FROM tab3 WHERE col0 > 808 ORDER BY 1 DESC,2 DESC

SELECT pk, col0 FROM tab0 WHERE (col3 < 60) ORDER BY 1 DESC

SELECT pk, col0 FROM tab0 WHERE (col0 IN (SELECT col3 FROM tab0 WHERE ((col0 <= 833) AND (col0 >= 777) OR ((col3 < 968 OR col3 = 155)) OR ((col1 BETWEEN 167.85 AND 11.49) AND col1 > 739.32)) AND (((col0 >= 955))) OR col3 <= 363 AND col1 > 518.9)) ORDER BY 1 DESC,2 DESC

SELECT pk, col0 FROM tab0 WHERE col3 > 237 OR col0 = 427 AND col0 BETWEEN 439 AND 284 ORDER BY 1 DESC

SELECT pk, col0 FROM tab0 WHERE col4 <= 751.38 ORDER BY 1 DESC,2

SELECT pk, col0 FROM tab4 WHERE col1 >= 434.58 ORDER BY 2

SELECT pk, col0 FROM tab3 WHERE col1 > 489.25 OR (col4 IN (702.5,476.16,396.24,821.28)) ORDER BY 2,1

SELECT pk FROM tab2 WHERE col3 <= 478 ORDER BY 1 DESC

SELECT pk, col0 FROM tab0 WHERE ((col1 > 6.75)) ORDER BY 1,2

SELECT pk FROM tab3 WHERE col0 > 258 AND (col0 > 258) ORDER BY 1

SELECT pk, col0 FROM tab2 WHERE (((col0 >= 536)) OR col3 > 139) ORDER BY 2 DESC

SELECT pk, col0 FROM tab3 WHERE col1 >= 684.1 ORDER BY 2 DESC,1

SELECT pk, col0 FROM tab3 WHERE col4 > 726.50 AND col3 > 146 AND col3 IN (167,315,163) AND col4 IS NULL ORDER BY 1 DESC

SELECT pk, col0 FROM tab4 WHERE col0 > 503 ORDER BY 2,1

SELECT pk, col0 FROM tab1 WHERE col0 > 258 AND (col0 > 258) ORDER BY 1,2

SELECT pk, col0 FROM tab2 WHERE (((col0 <= 288) OR col0 = 730 AND col3 >= 248 AND col4 <= 875.37 OR col3 < 497 OR (((((col0 = 321 OR ((col3 IS NULL) AND col3 = 98 OR col3 > 851 OR col1 > 871.4)))))) AND col0 <= 572 OR col0 <= 366) OR col1 IS NULL OR ((col4 > 312.18)) AND (col3 <= 629)) OR col4 > 844.49 ORDER BY 1 DESC,2 DESC

SELECT pk, col0 FROM tab2 WHERE (((col3 < 729) OR col0 > 814)) ORDER BY 1 DESC

SELECT pk, col0 FROM tab0 WHERE col4 IS NULL AND col4 > 754.63 AND col0 > 807 AND ((col4 > 444.87)) OR col0 = 29 OR col0 > 479 ORDER BY 1 DESC

SELECT pk, col0 FROM tab3 WHERE col0 > 808 ORDER BY 1 DESC,2

SELECT pk, col0 FROM tab1 WHERE (((col0 >= 536)) OR col3 > 139) ORDER BY 2

CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab1(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab2(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

INSERT INTO tab3 SELECT * FROM tab0

INSERT INTO tab0 VALUES(1,51,56.10,'anmeb',48,5.54,'savce')

INSERT INTO tab0 VALUES(0,26,41.54,'ducbo',8,61.75,'nbofo')

SELECT pk, col0 FROM tab2 WHERE (col3 <= 60) ORDER BY 1,2 DESC

SELECT pk FROM tab1 WHERE (((col3 > 99) AND (col1 = 12.25 AND (col0 >= 78 OR col3 >= 2 OR (col3 > 67 AND (col1 > 71.8 OR col0 IS NULL) AND col3 < 5 OR col0 >= 11 OR (((col0 = 74)) AND col3 < 88 AND ((((((col4 < 76.65))) OR ((col0 < 91 AND (col3 = 2 AND ((col3 >= 97))) OR col3 < 82 AND (col3 >= 71) AND col4 = 70.90 AND col0 = 19 AND (col1 = 62.45) OR col0 < 0)) OR col3 < 12 AND ((col0 IS NULL)) OR (col0 < 56)) OR (col1 > 61.89))))))) AND ((((col3 < 28)))) AND col3 >= 72) AND (col3 >= 47) OR col1 >= 26.89) ORDER BY 1

SELECT pk FROM tab3 WHERE col0 < 50 ORDER BY 1 DESC

SELECT pk, col0 FROM tab3 WHERE (((col3 BETWEEN 5 AND 83) AND ((col3 >= 88)) AND (col3 <= 12))) ORDER BY 1,2

SELECT pk FROM tab2 WHERE (((col0 < 70 AND col0 IN (51,99,42,67) OR ((col4 > 51.15 AND col0 > 84))))) OR (((col3 < 7))) AND col4 IN (58.97,24.63,28.56,14.18,60.66) AND (col1 > 56.77) ORDER BY 1

SELECT pk FROM tab4 WHERE col0 IS NULL ORDER BY 1 DESC

SELECT pk, col0 FROM tab2 WHERE col1 > 76.29 OR col3 > 83 OR col3 >= 47 OR col3 > 36 ORDER BY 1 DESC,2

SELECT pk, col0 FROM tab1 WHERE (col0 > 35) OR col3 < 91 ORDER BY 1

SELECT pk, col0 FROM tab2 WHERE (((col0 > 43) AND col0 = 8) OR col3 < 87) OR col1 BETWEEN 2.79 AND 97.56 OR col3 > 98 ORDER BY 2 DESC

SELECT pk, col0 FROM tab3 WHERE col0 IN (91,14,36,72,98,58) ORDER BY 1,2

SELECT pk, col0 FROM tab4 WHERE col1 >= 22.49 ORDER BY 1

SELECT pk FROM tab2 WHERE ((col4 >= 3.7)) ORDER BY 1 DESC

SELECT pk, col0 FROM tab3 WHERE (col3 >= 23 OR col4 IS NULL) AND col0 > 72 ORDER BY 2 DESC,1

SELECT pk, col0 FROM tab3 WHERE col1 <= 62.13 ORDER BY 1 DESC,2 DESC

SELECT pk FROM tab2 WHERE col4 <= 38.69 ORDER BY 1 DESC

SELECT pk, col0 FROM tab3 WHERE (col3 > 67) AND (col0 = 19 OR col1 > 62.88 OR (col3 > 19 AND col4 IS NULL) OR (col0 < 40 AND col1 BETWEEN 93.50 AND 3.29 OR col1 > 1.63 AND col0 > 91)) OR col4 = 75.72 AND (col3 BETWEEN 3 AND 67) OR ((col4 > 99.87 AND col0 = 11 AND col0 <= 96 AND ((col3 > 25)) AND col1 < 68.29)) OR col0 < 13 ORDER BY 1 DESC,2

SELECT pk, col0 FROM tab4 WHERE (((col0 > 43) AND col0 = 8) OR col3 < 87) OR col1 BETWEEN 2.79 AND 97.56 OR col3 > 98 ORDER BY 1 DESC,2 DESC

SELECT pk, col0 FROM tab0 WHERE col0 IN (54,85,84) AND col0 >= 67 AND (col4 = 27.51) OR col0 < 50 AND (((col0 > 71))) OR ((col1 < 91.16 AND col3 > 50 OR (col0 <= 67) OR col0 > 53)) OR ((col4 = 33.25 OR col3 IN (46))) OR ((col3 < 31)) AND col4 <= 64.76 ORDER BY 1 DESC,2

SELECT pk, col0 FROM tab2 WHERE (col3 >= 23 OR col4 IS NULL) AND col0 > 72 ORDER BY 2 DESC

SELECT pk, col0 FROM tab2 WHERE (col1 < 33.40 AND (col0 > 98) OR col1 IS NULL) OR col3 <= 4 OR col4 IS NULL ORDER BY 1,2 DESC

SELECT pk, col0 FROM tab1 WHERE (((col0 <= 93 OR (col1 > 11.30 OR col3 IS NULL) AND col1 <= 74.82 AND ((col0 BETWEEN 3 AND 14) AND (col0 > 98) OR ((((col0 IN (22,42,90))))) OR (col0 < 50) AND col0 >= 91 AND col0 > 92 OR ((col3 < 19)) OR col1 <= 46.54 AND col3 >= 58 AND col3 > 11 AND col0 >= 89 AND (col3 < 47 OR col3 >= 64 AND (((col0 > 63) AND col1 < 37.30 OR col3 IN (39,23,41,66,35,94) AND col1 > 77.71)) AND (col4 >= 52.46 OR col0 >= 17)) AND col0 > 15 OR col3 > 11 AND col4 <= 61.71 AND (col1 >= 68.49) AND ((((col1 IN (52.17,15.46,41.68,20.54,29.12)) OR col3 = 51)))) AND col3 >= 14 AND (col0 = 5)) AND (col0 < 20 AND (col3 > 39) OR (((col3 >= 1))) OR col3 <= 51 OR (col3 IN (78,68,20) OR col0 > 99)))) ORDER BY 1 DESC

SELECT pk, col0 FROM tab4 WHERE (col4 > 91.85) AND (col3 >= 1) ORDER BY 2,1

SELECT pk, col0 FROM tab2 WHERE col0 > 84 ORDER BY 2 DESC,1

SELECT pk, col0 FROM tab0 WHERE ((col0 > 73 AND col0 IS NULL)) ORDER BY 1 DESC,2

SELECT pk, col0 FROM tab0 WHERE col4 > 94.85 AND col3 <= 50 ORDER BY 1,2 DESC

SELECT pk, col0 FROM tab4 WHERE ((col3 <= 54)) ORDER BY 2

SELECT pk, col0 FROM tab1 WHERE col3 = 59 AND col3 IS NULL ORDER BY 2 DESC

SELECT pk, col0 FROM tab0 WHERE (col4 >= 33.32) OR col1 >= 56.21 OR (col0 IS NULL AND (col1 IS NULL) AND (col4 > 60.71) AND col4 <= 13.99) OR ((col4 > 88.41)) AND ((col3 >= 29)) ORDER BY 1

SELECT pk, col0 FROM tab3 WHERE ((col0 = 19)) ORDER BY 2 DESC

SELECT pk, col0 FROM tab1 WHERE (col0 IS NULL OR col4 > 95.17 AND (col4 < 73.89)) ORDER BY 1,2 DESC

CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab1(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab2(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

INSERT INTO tab0 VALUES(8,535,18.11,'ijika',630,489.63,'hpnyu')

INSERT INTO tab2 SELECT * FROM tab0

INSERT INTO tab0 VALUES(3,620,864.8,'myrdv',877,820.98,'oxkuv')

SELECT 32 * col3 + col0 FROM tab4 AS cor0 WHERE + 75 IS NOT NULL

SELECT + COUNT( * ) AS col5 FROM tab2 AS cor0 WHERE NOT + ( col3 ) IS NULL OR NOT NULL IN ( + 93 )

SELECT ALL 21 FROM tab3 AS cor0 WHERE NOT NULL IS NOT NULL

SELECT DISTINCT - - 40 col0 FROM tab0 WHERE NOT col3 + + col3 + - - col4 IS NULL

SELECT * FROM tab0 cor0 WHERE NOT NULL >= NULL

SELECT * FROM tab3 WHERE ( NULL ) BETWEEN + 97 AND + 14 * col3

SELECT 34 * col3 FROM tab1 AS cor0 WHERE NOT NULL IS NOT NULL

SELECT ALL + + col1 + 98 + + col0 FROM tab0 WHERE NOT NULL IS NULL

SELECT * FROM tab4 AS cor0 WHERE NOT NULL NOT BETWEEN 17 * - + col1 AND col1

SELECT * FROM tab2 WHERE NOT col0 + - ( + col3 ) * - 66 * 47 * - + 61 < col3

SELECT ALL col5 AS col2 FROM tab1 cor0 WHERE ( + - col1 ) IS NOT NULL

SELECT + col4 FROM tab1 AS cor0 WHERE ( NULL ) IS NOT NULL

SELECT ALL * FROM tab3 AS cor0 WHERE NOT ( NULL ) = ( + + 6 )

SELECT - - col0 + + 26 col3 FROM tab0 AS cor0 WHERE + - 32 * col4 > + + col1 AND + 85 / + col3 BETWEEN NULL AND NULL

SELECT col5 FROM tab3 WHERE NOT 48 IS NULL

SELECT + 74 FROM tab1 AS cor0 WHERE ( NULL ) IS NULL

SELECT col2 FROM tab3 AS cor0 WHERE - col3 NOT BETWEEN NULL AND + 11

SELECT DISTINCT - 23 FROM tab2 WHERE NOT ( - col3 - col1 ) IS NOT NULL

SELECT ALL * FROM tab3 WHERE NOT NULL BETWEEN + + 57 - col1 AND NULL

SELECT 79 FROM tab0 WHERE ( + 94 ) - + ( + 1 ) NOT BETWEEN NULL AND ( col1 + + 33 )

SELECT + 11 FROM tab1 AS cor0 WHERE col4 = + + col4

SELECT ALL col1 FROM tab4 AS cor0 WHERE NOT col0 IS NOT NULL

SELECT - 54 - MAX( ALL + 75 ) FROM tab0 WHERE NOT col4 IS NULL

SELECT DISTINCT 99 AS col5, - col0 * - - col1 FROM tab4 AS cor0 WHERE NOT NULL IS NULL

SELECT DISTINCT + col4 - col3 FROM tab3 AS cor0 WHERE NOT NULL BETWEEN - col4 * + + 9 AND ( NULL )

SELECT ALL - COUNT( * ) + - COUNT( * ) AS col2 FROM tab1 AS cor0 WHERE ( + col5 ) IS NOT NULL

SELECT ALL + col3 * - 98 FROM tab0 AS cor0 WHERE + col1 / + col4 IS NOT NULL

SELECT ALL ( - + 5 ) FROM tab1 WHERE NOT ( NULL ) IS NOT NULL

SELECT DISTINCT - 73 FROM tab3 AS cor0 WHERE NOT 78 <= - + 10 * + 13 + - 72

SELECT DISTINCT + - col3 FROM tab3 cor0 WHERE 86 IS NULL

CREATE TABLE tab0(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab1(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

CREATE TABLE tab2(pk INTEGER PRIMARY KEY, col0 INTEGER, col1 FLOAT, col2 TEXT, col3 INTEGER, col4 FLOAT, col5 TEXT)

INSERT INTO tab0 VALUES(54,10223,199218.79,'lsutw',337158,896392.94,'noddz')

INSERT INTO tab0 VALUES(961,63110,503875.29,'hlhne',527862,290252.41,'lqgsu')

INSERT INTO tab0 VALUES(934,53588,786346.26,'haljd',774963,890045.41,'pcvho')

SELECT DISTINCT col3 * col4 + col3 AS col1 FROM tab2 WHERE ( NULL ) <= col3

SELECT DISTINCT - 60 AS col2 FROM tab1 WHERE NOT col4 NOT BETWEEN ( col4 ) AND + 31 / col3 + col3

SELECT DISTINCT col3 * col4 + col3 AS col1 FROM tab3 WHERE ( NULL ) <= col3

SELECT + col3 col1 FROM tab1 WHERE col4 IS NULL

SELECT ALL ( - 48 ) FROM tab2 cor0 WHERE NOT NULL IS NULL

SELECT + col3 col1 FROM tab2 WHERE col4 IS NULL

SELECT + col3 col1 FROM tab0 WHERE col4 IS NULL

SELECT ALL ( - 48 ) FROM tab0 cor0 WHERE NOT NULL IS NULL

SELECT * FROM tab0 AS cor0 WHERE ( NOT NULL <> + col4 / CAST( - col0 AS DECIMAL ) )

SELECT * FROM tab1 WHERE NOT - col4 IS NOT NULL

SELECT - 33 FROM tab1 WHERE NULL IS NULL

SELECT * FROM tab4 AS cor0 WHERE ( NOT NULL <> + col4 / CAST( - col0 AS DECIMAL ) )

SELECT DISTINCT col3 * col4 + col3 AS col1 FROM tab1 WHERE ( NULL ) <= col3

SELECT * FROM tab3 WHERE NOT - col4 IS NOT NULL

SELECT ALL ( - 48 ) FROM tab4 cor0 WHERE NOT NULL IS NULL

SELECT * FROM tab3 AS cor0 WHERE ( NOT NULL <> + col4 / CAST( - col0 AS DECIMAL ) )

SELECT DISTINCT col3 * col4 + col3 AS col1 FROM tab0 WHERE ( NULL ) <= col3

SELECT DISTINCT - 60 AS col2 FROM tab3 WHERE NOT col4 NOT BETWEEN ( col4 ) AND + 31 / col3 + col3

SELECT * FROM tab2 AS cor0 WHERE ( NOT NULL <> + col4 / CAST( - col0 AS DECIMAL ) )

SELECT * FROM tab4 WHERE NOT - col4 IS NOT NULL

SELECT - 33 FROM tab3 WHERE NULL IS NULL

SELECT * FROM tab0 WHERE NOT - col4 IS NOT NULL

SELECT DISTINCT - 60 AS col2 FROM tab0 WHERE NOT col4 NOT BETWEEN ( col4 ) AND + 31 / col3 + col3

SELECT - 33 FROM tab0 WHERE NULL IS NULL

SELECT DISTINCT col3 * col4 + col3 AS col1 FROM tab4 WHERE ( NULL ) <= col3

SELECT DISTINCT - 60 AS col2 FROM tab2 WHERE NOT col4 NOT BETWEEN ( col4 ) AND + 31 / col3 + col3

SELECT - 33 FROM tab4 WHERE NULL IS NULL

SELECT ALL ( - 48 ) FROM tab3 cor0 WHERE NOT NULL IS NULL

SELECT ALL ( - 48 ) FROM tab1 cor0 WHERE NOT NULL IS NULL

SELECT * FROM tab2 WHERE NOT - col4 IS NOT NULL

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab2 VALUES(46,51,23)

INSERT INTO tab2 VALUES(64,77,40)

INSERT INTO tab0 VALUES(97,1,99)

SELECT - COUNT( ALL + col2 ) AS col2 FROM tab2 AS cor0

SELECT ALL + 10 + + - col1 col1 FROM tab0 AS cor0

SELECT + + col2 * - col0 + - col2 col2 FROM tab1 WHERE NULL > + - col0 + - 72

SELECT col1 + + 64 + + col0 AS col2 FROM tab1

SELECT 92 * - col2 + col0 + + + 63 FROM tab1 AS cor0

SELECT ALL * FROM tab1 AS cor0 WHERE + 17 * + - 5 IS NULL

SELECT DISTINCT * FROM tab1 WHERE NOT - col1 + + ( col2 ) - - col0 IS NOT NULL OR NULL IS NULL

SELECT * FROM tab2 WHERE + 38 IS NULL

SELECT DISTINCT - col0 + col1 + 85 FROM tab0 AS cor0

SELECT + + col2 - - 45 FROM tab1 AS cor0

SELECT - COUNT( + col2 ) FROM tab2

SELECT + col0 * 95 - + - col1 + - col0 FROM tab2 AS cor0

SELECT DISTINCT 76 AS col1 FROM tab1 AS cor0 WHERE NULL IS NOT NULL

SELECT * FROM tab1 AS cor0 CROSS JOIN tab2 AS cor1 WHERE 36 IS NULL

SELECT + - 25 * + - COUNT( * ) FROM tab0 AS cor0

SELECT - COUNT( * ) * COUNT( * ) FROM tab2

SELECT DISTINCT * FROM tab0 WHERE NULL > + col0 * + CAST( NULL AS SIGNED )

SELECT 40 AS col0 FROM tab0 cor0 CROSS JOIN tab2 cor1

SELECT DISTINCT + 85 + 66 AS col0 FROM tab2 AS cor0

SELECT DISTINCT col1 + - ( + ( - + col0 ) ) AS col2 FROM tab0 AS cor0

SELECT - col1 + - 43 FROM tab0

SELECT ALL - ( + - 39 ) * - COUNT( * ) + + - 78 col1 FROM tab2 cor0 WHERE CAST( NULL AS SIGNED ) + col1 * - + ( - col0 ) <> NULL

SELECT DISTINCT 62 DIV 63 AS col1 FROM tab2

SELECT COUNT( DISTINCT + - ( - 9 ) ) DIV 6 AS col0 FROM tab1 AS cor0

SELECT DISTINCT - 23 * - 69 AS col1, 75 col1 FROM tab0 AS cor0

SELECT ALL COUNT( * ) * + 43 AS col1 FROM tab2

SELECT DISTINCT + 38 * col0 AS col1 FROM tab2

SELECT ALL - MAX( + 43 ) FROM tab2 AS cor0

SELECT - ( + 62 ) * + - COUNT( * ) FROM tab1 WHERE NULL NOT IN ( col1, col1 * ( + + 10 ) * - col1 * col1 )

SELECT DISTINCT * FROM tab0 AS cor0 WHERE NOT col1 * 3 * 71 * - col0 IS NOT NULL

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab0 VALUES(87,21,10)

INSERT INTO tab0 VALUES(97,1,99)

INSERT INTO tab1 VALUES(91,47,68)

SELECT - - col1 + - 12 FROM tab2 AS cor0

SELECT * FROM tab1 WHERE NOT + col1 * + col2 <= NULL

SELECT DISTINCT + - COUNT( * ) FROM tab1 AS cor0 WHERE col1 IS NULL

SELECT - ( + 7 ) + + - col0 FROM tab2

SELECT ALL * FROM tab2 WHERE ( NULL ) IN ( - CAST( NULL AS DECIMAL ) * col2 )

SELECT DISTINCT COUNT( * ) - + 70 FROM tab0 AS cor0

SELECT * FROM tab1 WHERE - col1 IS NULL

SELECT - + CAST( NULL AS DECIMAL ) - + 30 AS col0 FROM tab0 AS cor0 WHERE ( NULL ) <> NULL

SELECT 20 * + - col1 * - - col1 AS col1 FROM tab1

SELECT col1, col1 * col0 * 93 AS col1 FROM tab2

SELECT DISTINCT CAST( NULL AS SIGNED ) * - col2 FROM tab2 AS cor0

SELECT ALL - col1 DIV + 7 col0 FROM tab0 AS cor0

SELECT - - 95 * + + col0 AS col2 FROM tab1 cor0

SELECT DISTINCT - + 79 AS col2 FROM tab0 WHERE NOT - - 1 <> + + ( - col2 )

SELECT - MIN( ALL + col0 ) * - - COUNT( * ) + MAX( - col0 ) AS col0 FROM tab2

SELECT DISTINCT CAST( - col1 AS SIGNED ) + col0 + - col0 AS col1, col0 FROM tab1

SELECT DISTINCT + + MAX( col0 ) FROM tab2 AS cor0 WHERE NOT col2 IS NULL

SELECT AVG ( ALL + col1 ) * CAST( NULL AS SIGNED ) AS col1 FROM tab0 AS cor0

SELECT COUNT( * ) AS col0 FROM tab0 AS cor0 CROSS JOIN tab1 AS cor1

SELECT col0 DIV + + 56 FROM tab1 AS cor0

SELECT DISTINCT + 76 + + COUNT( * ) FROM tab0 AS cor0

SELECT COUNT( * ) FROM tab0 WHERE NOT NULL IS NOT NULL

SELECT SUM( ALL - 91 ) FROM tab0

SELECT + CAST( NULL AS SIGNED ) / COUNT( * ) col0 FROM tab1

SELECT - COUNT( * ) - + COUNT( * ) FROM tab0 AS cor0

SELECT DISTINCT ( - - MIN( + 81 ) ) * - COUNT( * ) AS col0 FROM tab2

SELECT ALL * FROM tab1 AS cor0 WHERE NOT - col2 + col0 * + + col2 * + - 9 = + col2

SELECT DISTINCT - - col1 AS col1, - 97 FROM tab0 AS cor0

SELECT 15 * col0 * - col1 col2 FROM tab1 AS cor0

SELECT col1 AS col0 FROM tab1 cor0 WHERE 35 IS NULL

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab1 VALUES(91,47,68)

INSERT INTO tab2 VALUES(46,51,23)

INSERT INTO tab1 VALUES(85,5,59)

SELECT + MAX( ALL - 23 )

SELECT + MIN( + - 58 )

SELECT + 2 AS col2, + 23

SELECT - - 56 - + 68 AS col1

SELECT 38 col0, - 97 * + 20 + + + ( 48 ) col1

SELECT + 68 + + 12

SELECT DISTINCT - 60 AS col0, + 80 - - 17 + - + 66 + 73 AS col1

SELECT ALL - CASE + - 72 WHEN - - 51 THEN NULL WHEN - CAST( 88 AS DECIMAL ) THEN + CASE - SUM( ALL 36 ) WHEN - ( 4 ) + + 94 THEN - CAST( NULL AS SIGNED ) END + 93 * 14 ELSE + 72 * - 5 + 8 * 51 END AS col0

SELECT + NULLIF ( - 38, - 14 ) + + 22 + + - 5

SELECT ALL + 79 * + - 88

SELECT DISTINCT 76 + + CASE COUNT( * ) WHEN + ( + 14 ) THEN + + ( - COUNT( * ) ) * + - COUNT( * ) END AS col1

SELECT ALL - COUNT( * ) + - + ( 80 )

SELECT + + CAST( - 47 AS SIGNED )

SELECT ALL + ( + + MAX( + 21 ) ) AS col0

SELECT ALL 18 + 80 + + 29

SELECT + MAX( ALL 49 )

SELECT + + 47 DIV 63

SELECT + + ( CAST( NULL AS SIGNED ) ) * 41 * - CASE + + 89 WHEN + COUNT( * ) + + 41 THEN + - 83 END + - - 23 AS col2

SELECT ALL - 82 + - + 53 * - 84 * + 56

SELECT 52 * + + 12 * 95 + 82 * 0

SELECT ALL + - 0 - 32 AS col2

SELECT ALL + 69 * 45 AS col1, + 87 * + 17

SELECT - 91 + 76

SELECT - - 49 DIV + 89 + + COUNT( * ) AS col2

SELECT DISTINCT - 8 col0

SELECT + 79 + - MAX( - 29 ) AS col0

SELECT DISTINCT ( - 60 ) * - 19

SELECT + - 78 + - + 63 + - MIN( 10 ) - - + MAX( DISTINCT 0 ) col0

SELECT - 67, - 39 AS col2

SELECT CAST( - 22 AS SIGNED )

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab1 VALUES(85,5,59)

INSERT INTO tab2 VALUES(46,51,23)

INSERT INTO tab2 VALUES(64,77,40)

SELECT + CAST( NULL AS DECIMAL ) AS col0

SELECT - - 30

SELECT DISTINCT MIN( DISTINCT + 5 )

SELECT - - 45 + 63

SELECT 61 * - 79

SELECT ALL - 11

SELECT + + 5 col2

SELECT - + 63

SELECT ALL + - COUNT( * ) + + - 81

SELECT + ( ( + 25 ) ) AS col2

SELECT - COUNT( 2 ) DIV + + 90 AS col1

SELECT DISTINCT + ( - 72 ) AS col1

SELECT DISTINCT COUNT( * ) + 49

SELECT ALL 33 * + COUNT( * )

SELECT ALL + + 36 AS col2

SELECT ALL + 86, - 44 AS col1

SELECT 68 AS col0

SELECT + 16 AS col2

SELECT - 10 AS col1

SELECT 55 col0

SELECT ALL 93 AS col0

SELECT DISTINCT - 40 + - COUNT( * ) AS col2

SELECT ALL + ( + 3 ) AS col0

SELECT ALL - - COUNT( * ), 51 AS col1

SELECT - 74 AS col1

SELECT DISTINCT SUM( ALL + 82 ) AS col1

SELECT DISTINCT - - 63

SELECT 12 - ( - + 80 ) AS col2

SELECT ALL + 58 AS col2

SELECT + + 49 AS col1

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab2 VALUES(92,41,58)

INSERT INTO tab1 VALUES(22,6,8)

INSERT INTO tab2 VALUES(91,59,79)

SELECT DISTINCT + + tab2.col0 FROM tab2, tab1 AS cor0 GROUP BY tab2.col0

SELECT DISTINCT cor0.col2 + cor0.col2 * 46 FROM tab1 AS cor0 GROUP BY cor0.col2

SELECT CAST( 19 AS SIGNED ) + + cor0.col0 AS col2 FROM tab0 AS cor0 GROUP BY cor0.col0

SELECT DISTINCT 64 AS col1 FROM tab0 GROUP BY col1

SELECT DISTINCT cor0.col2 AS col2 FROM tab2 AS cor0 GROUP BY col1, cor0.col2, cor0.col1

SELECT + cor0.col2 + + col2 col0 FROM tab0 AS cor0 GROUP BY cor0.col2

SELECT DISTINCT 38 FROM tab2 AS cor0 GROUP BY cor0.col1

SELECT ALL 3 FROM tab2 AS cor0 GROUP BY cor0.col1

SELECT ALL CAST( NULL AS SIGNED ) AS col0 FROM tab0 cor0 GROUP BY cor0.col2

SELECT DISTINCT cor0.col1 AS col2 FROM tab2 AS cor0 GROUP BY cor0.col1

SELECT DISTINCT - + cor0.col1 FROM tab2, tab2 AS cor0 GROUP BY cor0.col1

SELECT DISTINCT - - 77 AS col0 FROM tab1, tab2 AS cor0 GROUP BY cor0.col0

SELECT ALL + cor0.col2 AS col0 FROM tab1 AS cor0 GROUP BY cor0.col1, cor0.col2

SELECT 1 FROM tab0 AS cor0 GROUP BY cor0.col2

SELECT DISTINCT 25 FROM tab2 AS cor0 GROUP BY cor0.col2

SELECT ALL + col0 * + 59 AS col1 FROM tab1 AS cor0 GROUP BY cor0.col0

SELECT cor0.col2 - ( 70 ) AS col1 FROM tab1 cor0 GROUP BY cor0.col1, cor0.col2

SELECT ALL 52 col0 FROM tab0 AS cor0 GROUP BY cor0.col0

SELECT DISTINCT - cor0.col1 * 72 FROM tab1 AS cor0 GROUP BY cor0.col1

SELECT ALL 2 FROM tab2 AS cor0 CROSS JOIN tab1 AS cor1 GROUP BY cor0.col1

SELECT DISTINCT ( - cor0.col1 ) col0 FROM tab0 AS cor0 GROUP BY cor0.col1, col2

SELECT ALL + cor0.col0 FROM tab1 AS cor0 CROSS JOIN tab2 AS cor1 GROUP BY cor1.col2, cor0.col0

SELECT - 70 + + cor0.col1 FROM tab1, tab2 AS cor0 GROUP BY cor0.col1

SELECT + 87 AS col0 FROM tab0 cor0 GROUP BY cor0.col2, cor0.col2

SELECT + 43 FROM tab2 AS cor0 CROSS JOIN tab1 cor1 GROUP BY cor0.col0

SELECT 14 AS col2 FROM tab1 AS cor0 GROUP BY cor0.col1

SELECT ALL + cor0.col1 + - 29 AS col2 FROM tab0 AS cor0 GROUP BY cor0.col1

SELECT + cor0.col1 col1 FROM tab2 AS cor0 GROUP BY cor0.col2, cor0.col1

SELECT - cor0.col2 AS col2 FROM tab2 AS cor0 GROUP BY cor0.col0, cor0.col2

SELECT DISTINCT + + ( + COALESCE ( 68, - cor0.col0, + 86 ) ) * cor0.col0 col0 FROM tab1, tab0 AS cor0 GROUP BY cor0.col0

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab1 VALUES(28,57,45)

INSERT INTO tab1 VALUES(22,6,8)

INSERT INTO tab0 VALUES(43,81,24)

SELECT + 42 AS col2 FROM tab2 GROUP BY tab2.col1

SELECT 45 AS col1 FROM tab2 GROUP BY tab2.col0

SELECT DISTINCT - 99 * col2 FROM tab0 AS cor0 GROUP BY cor0.col0, cor0.col1, col2

SELECT DISTINCT + col0 AS col2 FROM tab2 AS cor0 GROUP BY cor0.col0

SELECT ALL ( cor0.col1 ) FROM tab2 cor0 GROUP BY cor0.col1

SELECT cor0.col1 * + col1 col0 FROM tab1 AS cor0 GROUP BY cor0.col1

SELECT ALL - cor0.col2 + cor0.col2 FROM tab2 AS cor0 GROUP BY cor0.col1, col2, cor0.col1

SELECT ALL + 21 FROM tab1 AS cor0 GROUP BY col1

SELECT ALL cor0.col2 AS col0 FROM tab1 AS cor0 CROSS JOIN tab2 AS cor1 GROUP BY cor0.col2

SELECT DISTINCT 88 AS col1 FROM tab2 cor0 GROUP BY cor0.col1

SELECT 84 FROM tab1 GROUP BY tab1.col2

SELECT DISTINCT 87 AS col0 FROM tab0 GROUP BY tab0.col0

SELECT ALL + 32 * cor0.col0 AS col2 FROM tab0 AS cor0 GROUP BY cor0.col0

SELECT ALL - tab1.col2 FROM tab1 GROUP BY tab1.col2 HAVING NOT NULL >= ( NULL )

SELECT ALL + cor0.col2 - cor0.col1 FROM tab1 AS cor0 GROUP BY cor0.col1, cor0.col2

SELECT DISTINCT + - 99 AS col2 FROM tab0 GROUP BY tab0.col0

SELECT ALL - col2 AS col2 FROM tab0 GROUP BY col2

SELECT col1 * 49 AS col0 FROM tab2 AS cor0 GROUP BY cor0.col1, cor0.col2

SELECT cor0.col1 + 56 FROM tab1 AS cor0 GROUP BY cor0.col1, col0

SELECT 96 FROM tab1 AS cor0 GROUP BY col0

SELECT DISTINCT - 74 FROM tab2 GROUP BY tab2.col1

SELECT ALL - 88 col2 FROM tab0 AS cor0 GROUP BY cor0.col2

SELECT + 55 FROM tab0 AS cor0 GROUP BY cor0.col2

SELECT 16 AS col2 FROM tab1 AS cor0 GROUP BY cor0.col2

SELECT - 47 AS col2 FROM tab0 AS cor0 GROUP BY col0

SELECT ALL cor0.col2 - 55 AS col0 FROM tab0 AS cor0 GROUP BY cor0.col2, col2

SELECT + 9 AS col1 FROM tab1 AS cor0 CROSS JOIN tab0 AS cor1 GROUP BY cor1.col0

SELECT ALL 55 DIV col2 AS col2 FROM tab0 AS cor0 GROUP BY cor0.col0, cor0.col1, cor0.col2

SELECT cor0.col2 * 1 + cor0.col0 FROM tab0 AS cor0 GROUP BY cor0.col2, cor0.col0

SELECT DISTINCT - cor0.col2 * + cor0.col2 + - cor0.col0 FROM tab1 AS cor0 GROUP BY cor0.col0, cor0.col2

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab1 VALUES(64,10,57)

INSERT INTO tab2 VALUES(78,59,26)

INSERT INTO tab2 VALUES(7,31,27)

SELECT col0 + - col1 DIV col0 FROM tab2

SELECT cor0.col0 FROM tab1 AS cor0

SELECT ALL - col0 - 78 * + col2 AS col2 FROM tab0 AS cor0

SELECT col2 * - cor0.col1 - col0 col2 FROM tab2 AS cor0

SELECT col2 * cor0.col0 FROM tab0 AS cor0

SELECT DISTINCT - col2 + + col1 FROM tab2 AS cor0

SELECT DISTINCT cor0.col1 * - col0 AS col0 FROM tab1 AS cor0

SELECT col2 + - col0 AS col2 FROM tab1

SELECT ALL - - col0 * + 91 + + cor0.col0 * + CAST( NULL AS DECIMAL ) FROM tab0 AS cor0

SELECT ALL - + col2 * - col1 * col2 AS col0 FROM tab1 AS cor0

SELECT DISTINCT - col0 + col1 col0 FROM tab2 AS cor0

SELECT DISTINCT tab1.col2 AS col1 FROM tab1

SELECT * FROM tab0 WHERE - col1 BETWEEN NULL AND ( NULL )

SELECT ALL col1 AS col0 FROM tab1 cor0

SELECT ALL 74 FROM tab0, tab2 AS cor0, tab1 AS cor1

SELECT DISTINCT + cor1.col2 * - 19 FROM tab2 AS cor0 CROSS JOIN tab0 AS cor1

SELECT + - col1 * - col1 - cor0.col0 FROM tab2 AS cor0

SELECT - col2 * col2 + - col2 AS col1 FROM tab2 cor0

SELECT 33 - + col2 FROM tab2

SELECT col1 * + col0 * col2 AS col0 FROM tab1 AS cor0

SELECT + col2 * col1 - CAST( NULL AS SIGNED ) FROM tab1 AS cor0

SELECT + - 98 + col2 AS col2 FROM tab2 AS cor0

SELECT ALL + col1 * + col1 + cor0.col1 AS col1 FROM tab2 AS cor0

SELECT col2 * + col1 FROM tab1

SELECT DISTINCT + col0 * col2 DIV - ( col2 ) col1 FROM tab1 AS cor0

SELECT - tab1.col0 AS col1 FROM tab1, tab0 AS cor0

SELECT + 51 FROM tab1 AS cor0

SELECT ALL * FROM tab1, tab0 cor0, tab1 AS cor1

SELECT ALL - - cor0.col2 col1 FROM tab1 AS cor0

SELECT - - col0 * col0 FROM tab2 AS cor0

CREATE TABLE tab0(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab1(col0 INTEGER, col1 INTEGER, col2 INTEGER)

CREATE TABLE tab2(col0 INTEGER, col1 INTEGER, col2 INTEGER)

INSERT INTO tab2 VALUES(79,17,38)

INSERT INTO tab2 VALUES(7,31,27)

INSERT INTO tab0 VALUES(35,97,1)

SELECT + 70 * + col1 col0 FROM tab0

SELECT + col2 * ( - col1 ) FROM tab0

SELECT DISTINCT + cor0.col0 * - col0 AS col0 FROM tab2 AS cor0

SELECT * FROM tab2 AS cor0 CROSS JOIN tab1, tab1 AS cor1

SELECT ALL ( + col2 ) + col2 * + cor0.col2 AS col1 FROM tab0 AS cor0

SELECT DISTINCT + tab2.col1 - col0 FROM tab2

SELECT * FROM tab2, tab2 AS cor0, tab0 cor1

SELECT DISTINCT 81 AS col0 FROM tab1

SELECT DISTINCT + col0 + - 6 AS col2 FROM tab0 AS cor0

SELECT ALL + col0 FROM tab1 cor0

SELECT DISTINCT + col0 - + col1 FROM tab0

SELECT ALL - - col0 + - col2 AS col0 FROM tab2 cor0

SELECT 95 + - col0 * + col2 FROM tab0 cor0

SELECT ALL - col0 * CAST( + col1 AS SIGNED ) AS col2 FROM tab1 AS cor0

SELECT DISTINCT col2 * 99 FROM tab0 cor0

SELECT ALL - col0 DIV - col0 AS col2 FROM tab0 AS cor0

SELECT ALL + 41 - col0 AS col2 FROM tab2 AS cor0

SELECT + col1 - + col0 FROM tab0

SELECT - col0 * - col2 AS col1 FROM tab1

SELECT ALL + col0 DIV col0 + 44 FROM tab1

SELECT ALL - col2 + - col2 AS col0 FROM tab2

SELECT DISTINCT + - CAST( NULL AS SIGNED ) AS col0 FROM tab0 AS cor0

SELECT + col2 * + col2 AS col0 FROM tab2 AS cor0

SELECT - 28 AS col1 FROM tab1, tab2 AS cor0, tab1 AS cor1

SELECT DISTINCT - + col1 * col0 * col1 + + col1 * - col0 col1 FROM tab2 AS cor0

SELECT ALL + + 60 - col2 AS col0 FROM tab1 AS cor0

SELECT ALL + - col0 * - col0 + 59 AS col1 FROM tab1 AS cor0

SELECT ALL + - 64 * - cor0.col0 AS col0 FROM tab2 AS cor0

SELECT - col0 * 48 + - col2 DIV - col2 FROM tab0 AS cor0

SELECT ALL * FROM tab0, tab1 AS cor0 CROSS JOIN tab1

CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER)

INSERT INTO t1(b,c,d,a,e) VALUES(200,202,203,201,204)

INSERT INTO t1(b,c,a,d,e) VALUES(218,215,216,217,219)

INSERT INTO t1(c,d,b,e,a) VALUES(123,122,124,120,121)

SELECT c,
       a+b*2,
       e
  FROM t1
 WHERE e+d BETWEEN a+b-10 AND c+130
    OR d NOT BETWEEN 110 AND 150
 ORDER BY 1,2,3

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       d-e,
       a,
       abs(a)
  FROM t1
 ORDER BY 3,1,4,2

SELECT a+b*2+c*3,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       d-e,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       a
  FROM t1
 ORDER BY 6,4,5,3,2,1

SELECT CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       abs(b-c),
       abs(a),
       b,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1
 WHERE d NOT BETWEEN 110 AND 150
   AND d>e
 ORDER BY 1,5,3,2,4

SELECT b-c
  FROM t1
 WHERE d>e
 ORDER BY 1

SELECT c-d,
       a+b*2+c*3,
       a
  FROM t1
 ORDER BY 1,2,3

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       e,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       a+b*2
  FROM t1
 ORDER BY 2,4,1,5,3

SELECT a+b*2+c*3,
       a+b*2,
       a-b,
       a+b*2+c*3+d*4+e*5
  FROM t1
 WHERE a>b
    OR EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
    OR d>e
 ORDER BY 2,1,3,4

SELECT abs(a),
       e,
       a-b,
       a,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       d-e
  FROM t1
 WHERE a>b
    OR d NOT BETWEEN 110 AND 150
    OR b>c
 ORDER BY 4,6,1,2,3,5

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       a+b*2+c*3,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       abs(b-c),
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END
  FROM t1
 WHERE c BETWEEN b-2 AND d+2
 ORDER BY 3,1,6,4,2,5

SELECT c,
       a+b*2,
       abs(b-c)
  FROM t1
 WHERE b>c
    OR (a>b-2 AND a<b+2)
 ORDER BY 2,1,3

SELECT a+b*2
  FROM t1
 WHERE a>b
    OR (e>c OR e<d)
 ORDER BY 1

SELECT CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       e,
       abs(a)
  FROM t1
 ORDER BY 3,1,2

SELECT a+b*2+c*3+d*4+e*5,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       e,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       abs(b-c)
  FROM t1
 WHERE c>d
   AND EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
   AND e+d BETWEEN a+b-10 AND c+130
 ORDER BY 4,3,5,2,1

SELECT e,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       c,
       abs(a),
       d,
       d-e
  FROM t1
 WHERE b>c
   AND d>e
 ORDER BY 1,6,2,4,3,7,5

SELECT CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1
 WHERE b>c
    OR c BETWEEN b-2 AND d+2
    OR d NOT BETWEEN 110 AND 150
 ORDER BY 1

SELECT a+b*2+c*3+d*4,
       abs(b-c),
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1
 ORDER BY 2,4,3,1

SELECT a+b*2,
       a+b*2+c*3+d*4,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       b,
       c-d,
       a+b*2+c*3+d*4+e*5
  FROM t1
 WHERE (e>c OR e<d)
    OR EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
 ORDER BY 3,5,2,1,4,6

SELECT (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       abs(a),
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE e+d BETWEEN a+b-10 AND c+130
   AND c>d
 ORDER BY 1,3,2

SELECT b-c,
       (a+b+c+d+e)/5,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE b>c
 ORDER BY 1,2,3

SELECT abs(a),
       abs(b-c),
       c,
       a-b,
       c-d,
       a+b*2+c*3+d*4,
       b
  FROM t1
 ORDER BY 2,6,7,4,1,5,3

SELECT a+b*2+c*3+d*4+e*5
  FROM t1
 WHERE (a>b-2 AND a<b+2)
    OR c BETWEEN b-2 AND d+2
 ORDER BY 1

SELECT e,
       a-b,
       c,
       a
  FROM t1
 ORDER BY 1,4,2,3

SELECT (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       c,
       a,
       (a+b+c+d+e)/5
  FROM t1
 ORDER BY 2,3,1,4

SELECT a+b*2+c*3+d*4,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b)
  FROM t1
 WHERE e+d BETWEEN a+b-10 AND c+130
   AND d>e
   AND b>c
 ORDER BY 2,1

SELECT c,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       a+b*2,
       e,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       b-c,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1
 WHERE (a>b-2 AND a<b+2)
   AND d>e
   AND d NOT BETWEEN 110 AND 150
 ORDER BY 7,2,1,5,6,4,3

SELECT a-b
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
   AND e+d BETWEEN a+b-10 AND c+130
 ORDER BY 1

SELECT (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       abs(b-c),
       a+b*2+c*3+d*4,
       (a+b+c+d+e)/5,
       d-e,
       a+b*2+c*3+d*4+e*5
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
 ORDER BY 1,6,2,4,5,3

SELECT a+b*2+c*3+d*4,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       d,
       e
  FROM t1
 WHERE (e>c OR e<d)
 ORDER BY 3,1,2,4

SELECT a+b*2+c*3+d*4+e*5,
       a+b*2+c*3
  FROM t1
 WHERE b>c
    OR c BETWEEN b-2 AND d+2
    OR (e>c OR e<d)
 ORDER BY 2,1

CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER)

INSERT INTO t1(a,d,b,e,c) VALUES(127,128,129,126,125)

INSERT INTO t1(b,e,d,a,c) VALUES(223,221,222,220,224)

INSERT INTO t1(c,a,b,e,d) VALUES(187,188,186,189,185)

SELECT a+b*2,
       b-c,
       c-d
  FROM t1

SELECT c-d,
       abs(a),
       a+b*2,
       a+b*2+c*3+d*4,
       d-e,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       a
  FROM t1
 WHERE (c<=d-2 OR c>=d+2)

SELECT (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       a+b*2+c*3+d*4,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       (a+b+c+d+e)/5,
       abs(b-c),
       a+b*2
  FROM t1
 WHERE a>b

SELECT a+b*2+c*3+d*4+e*5,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       c,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       a
  FROM t1
 WHERE (a>b-2 AND a<b+2)
   AND d NOT BETWEEN 110 AND 150
   AND d>e

SELECT d
  FROM t1
 WHERE (a>b-2 AND a<b+2)

SELECT a+b*2,
       d,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       d-e,
       a-b,
       a+b*2+c*3+d*4+e*5
  FROM t1

SELECT e,
       b,
       (a+b+c+d+e)/5
  FROM t1
 WHERE (e>a AND e<b)
    OR b>c

SELECT (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       abs(b-c),
       e,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       b-c
  FROM t1

SELECT (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1

SELECT b-c,
       c
  FROM t1
 WHERE (e>a AND e<b)

SELECT c
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
    OR c>d
    OR a>b

SELECT d-e,
       a
  FROM t1
 WHERE b>c
   AND (e>c OR e<d)
   AND (a>b-2 AND a<b+2)

SELECT (a+b+c+d+e)/5,
       e,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d)
  FROM t1
 WHERE (a>b-2 AND a<b+2)
    OR (e>a AND e<b)

SELECT c,
       e
  FROM t1
 WHERE e+d BETWEEN a+b-10 AND c+130
   AND d NOT BETWEEN 110 AND 150

SELECT a+b*2,
       a-b,
       b,
       d
  FROM t1
 WHERE d>e
    OR d NOT BETWEEN 110 AND 150
    OR (c<=d-2 OR c>=d+2)

SELECT a,
       a+b*2+c*3,
       d-e
  FROM t1
 WHERE d>e
   AND b IS NOT NULL

SELECT a,
       a+b*2,
       a+b*2+c*3,
       b,
       abs(b-c),
       c-d,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b)
  FROM t1

SELECT c-d,
       b
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
    OR a IS NULL

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       c,
       d,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       a+b*2,
       c-d,
       a+b*2+c*3+d*4+e*5
  FROM t1
 WHERE a>b
    OR d>e

SELECT c-d,
       abs(a),
       a+b*2+c*3,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1

SELECT CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       d,
       (a+b+c+d+e)/5,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE b>c

SELECT a+b*2+c*3,
       (a+b+c+d+e)/5
  FROM t1
 WHERE (e>c OR e<d)

SELECT a+b*2+c*3+d*4+e*5,
       a,
       a+b*2+c*3+d*4,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE (c<=d-2 OR c>=d+2)
    OR EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)

SELECT CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       (a+b+c+d+e)/5,
       d-e,
       a,
       a+b*2+c*3
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)

SELECT a+b*2
  FROM t1

SELECT c,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       a,
       a+b*2
  FROM t1
 WHERE a IS NULL

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       c,
       a,
       a+b*2+c*3+d*4+e*5,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE (e>c OR e<d)
   AND a IS NULL

SELECT c,
       b-c,
       a+b*2+c*3+d*4,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       a+b*2+c*3,
       a,
       c-d
  FROM t1
 WHERE coalesce(a,b,c,d,e)<>0
   AND b IS NOT NULL

SELECT CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE a>b
   AND coalesce(a,b,c,d,e)<>0

SELECT b
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
   AND a IS NULL

CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER)

INSERT INTO t1(e,c,a,d,b) VALUES(177,176,179,NULL,175)

INSERT INTO t1(e,b,a,c,d) VALUES(237,236,239,NULL,238)

INSERT INTO t1(d,c,e,a,b) VALUES(116,119,117,115,NULL)

SELECT b,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       a-b,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       a+b*2+c*3+d*4,
       (a+b+c+d+e)/5,
       a+b*2
  FROM t1
 WHERE d NOT BETWEEN 110 AND 150

SELECT a+b*2+c*3,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d)
  FROM t1
 WHERE c BETWEEN b-2 AND d+2
   AND d>e
   AND (a>b-2 AND a<b+2)
 ORDER BY 1,2

SELECT e,
       b,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       (a+b+c+d+e)/5,
       a+b*2
  FROM t1
 WHERE d>e
    OR a>b
    OR (a>b-2 AND a<b+2)
 ORDER BY 4,2,3,1

SELECT c,
       a+b*2,
       abs(b-c)
  FROM t1
 WHERE b>c
    OR (a>b-2 AND a<b+2)

SELECT CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       (a+b+c+d+e)/5,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       abs(a),
       a-b,
       d,
       a+b*2+c*3
  FROM t1
 ORDER BY 4,3,5,6,2,7,1

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       abs(a),
       a,
       abs(b-c),
       c
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
 ORDER BY 3,2

SELECT abs(a),
       a+b*2+c*3+d*4,
       b,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       a+b*2+c*3+d*4+e*5,
       a-b,
       e
  FROM t1
 WHERE c>d
   AND (e>c OR e<d)
   AND e+d BETWEEN a+b-10 AND c+130
 ORDER BY 1,2,3,6,7,4,5

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       e,
       a+b*2+c*3,
       abs(b-c)
  FROM t1
 WHERE e+d BETWEEN a+b-10 AND c+130
   AND a>b
   AND c>d

SELECT a+b*2+c*3+d*4+e*5,
       d-e,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       (a+b+c+d+e)/5,
       abs(a)
  FROM t1
 WHERE c BETWEEN b-2 AND d+2

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       a+b*2+c*3+d*4+e*5,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1
 WHERE d>e
   AND (e>c OR e<d)
   AND d NOT BETWEEN 110 AND 150
 ORDER BY 2,1

SELECT b-c,
       a+b*2+c*3+d*4,
       (a+b+c+d+e)/5,
       CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       abs(b-c)
  FROM t1
 WHERE d>e
   AND EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
   AND d NOT BETWEEN 110 AND 150
 ORDER BY 5,3,4,1

SELECT a-b
  FROM t1
 ORDER BY 1

SELECT b,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       a+b*2
  FROM t1
 WHERE d>e
   AND c BETWEEN b-2 AND d+2
   AND a>b

SELECT (a+b+c+d+e)/5,
       b,
       abs(b-c),
       c,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE b>c
    OR EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
    OR c BETWEEN b-2 AND d+2

SELECT CASE a+1 WHEN b THEN 111 WHEN c THEN 222
        WHEN d THEN 333  WHEN e THEN 444 ELSE 555 END,
       a+b*2+c*3,
       c-d,
       e
  FROM t1
 WHERE (a>b-2 AND a<b+2)
   AND a>b
   AND d NOT BETWEEN 110 AND 150

SELECT d,
       a+b*2,
       abs(a),
       abs(b-c),
       a-b,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1
 WHERE (e>a AND e<b)
    OR e+d BETWEEN a+b-10 AND c+130
    OR d>e

SELECT b,
       a+b*2+c*3+d*4+e*5,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END
  FROM t1
 WHERE (c<=d-2 OR c>=d+2)
   AND a>b
   AND c>d

SELECT c,
       a+b*2+c*3,
       a,
       d,
       a+b*2,
       b
  FROM t1
 WHERE (e>c OR e<d)

SELECT a+b*2+c*3+d*4,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       d-e,
       d,
       abs(b-c),
       a+b*2+c*3,
       a-b
  FROM t1
 WHERE e+d BETWEEN a+b-10 AND c+130
   AND (a>b-2 AND a<b+2)

SELECT c,
       abs(b-c),
       a+b*2+c*3+d*4,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       a-b,
       d-e,
       a+b*2
  FROM t1
 WHERE c BETWEEN b-2 AND d+2
    OR (e>c OR e<d)

SELECT b-c,
       d,
       a+b*2+c*3+d*4+e*5,
       (a+b+c+d+e)/5,
       a+b*2,
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d),
       a-b
  FROM t1
 WHERE b>c
   AND (c<=d-2 OR c>=d+2)
   AND d NOT BETWEEN 110 AND 150

SELECT CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END,
       d-e,
       b-c,
       d,
       a+b*2+c*3+d*4+e*5,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       (a+b+c+d+e)/5
  FROM t1
 WHERE d NOT BETWEEN 110 AND 150
    OR e+d BETWEEN a+b-10 AND c+130
 ORDER BY 3,4,7,6,5,1,2

SELECT a+b*2+c*3,
       e,
       a+b*2,
       b-c
  FROM t1
 ORDER BY 2,4,3

SELECT (a+b+c+d+e)/5,
       a+b*2+c*3,
       c,
       b
  FROM t1
 ORDER BY 3,2

SELECT b,
       (a+b+c+d+e)/5,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       c
  FROM t1
 ORDER BY 4,3,2,1

SELECT CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       b-c
  FROM t1
 WHERE (c<=d-2 OR c>=d+2)
   AND c>d
 ORDER BY 1,2

SELECT a-b,
       c,
       (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       (SELECT count(*) FROM t1 AS x WHERE x.c>t1.c AND x.d<t1.d)
  FROM t1
 ORDER BY 4,2

SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b),
       a,
       a+b*2+c*3
  FROM t1
 WHERE (e>a AND e<b)
   AND c BETWEEN b-2 AND d+2
 ORDER BY 3,2

SELECT c-d,
       abs(a),
       b-c,
       b,
       a+b*2+c*3+d*4,
       c
  FROM t1
 WHERE EXISTS(SELECT 1 FROM t1 AS x WHERE x.b<t1.b)
   AND d>e
   AND (c<=d-2 OR c>=d+2)
 ORDER BY 4,3,6,5,2,1

SELECT (a+b+c+d+e)/5,
       CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END,
       CASE WHEN a<b-3 THEN 111 WHEN a<=b THEN 222
        WHEN a<b+3 THEN 333 ELSE 444 END
  FROM t1
 WHERE (e>a AND e<b)
    OR a>b

CREATE TABLE t1(
  a1 INTEGER,
  b1 INTEGER,
  c1 INTEGER,
  d1 INTEGER,
  e1 INTEGER,
  x1 VARCHAR(30)
)

CREATE TABLE t2(
  a2 INTEGER,
  b2 INTEGER,
  c2 INTEGER,
  d2 INTEGER,
  e2 INTEGER,
  x2 VARCHAR(30)
)

CREATE TABLE t3(
  a3 INTEGER,
  b3 INTEGER,
  c3 INTEGER,
  d3 INTEGER,
  e3 INTEGER,
  x3 VARCHAR(30)
)

INSERT INTO t1 VALUES(109,295,136,678,312,'table tn1 row 29')

INSERT INTO t8 VALUES(443,642,599,781,440,'table tn8 row 26')

INSERT INTO t7 VALUES(120,455,565,712,120,'table tn7 row 96')

SELECT b7, d5+18+d5, c2
  FROM t5, t7, t2
 WHERE c5=733
   AND 460=e7
   AND a2 in (336,268,304,574,980)

SELECT e7+236, b2, a1+102, d5+946
  FROM t1, t7, t2, t5
 WHERE c5 in (672,196,941,668,978,86,697,678)
   AND (e7=31 OR e7=67 OR e7=39)
   AND b2 in (168,367,357,217,605,754)
   AND a1 in (866,525,674,643,996)

SELECT c9, d4+791, d8+c8, a5
  FROM t4, t8, t9, t5
 WHERE b4 in (700,608,708,816,319,882)
   AND b9 in (171,50,900,211)
   AND 635=e8
   AND 634=c5

  SELECT e9 FROM t9
   WHERE (c9=75 AND a9=847 AND 129=d9 AND 19=b9 AND e9=549)
EXCEPT
  SELECT d3 FROM t3
   WHERE NOT ((386=b3 AND 696=a3))
EXCEPT
  SELECT e6 FROM t6
   WHERE NOT ((95=e6 AND b6=512 AND 366=d6 AND 442=c6))
UNION
  SELECT b4 FROM t4
   WHERE (660=c4)
      OR (739=e4 OR 948=a4)
UNION
  SELECT d8 FROM t8
   WHERE d8 in (14,108,108,192,384)

SELECT e9+c9, e2, e8*822, c4, x5, b6+654
  FROM t8, t9, t4, t5, t6, t2
 WHERE 698=e2
   AND c5=a6
   AND (749=b4 OR 961=b4 OR 184=b4 OR b4=849)
   AND (485=a9 OR 841=a9 OR 102=a9)
   AND d6 in (151,192,21,197,2)
   AND e8 in (620,377,440,14,904)

SELECT c4, c9*766
  FROM t4, t9
 WHERE b4=826
   AND d9 in (235,489,855,345,668,678,732)

SELECT d9, e2+54, x3, c7
  FROM t9, t3, t7, t2
 WHERE b9 in (848,549,103,361,456)
   AND a2=93
   AND e7 in (288,92,988,553,561,638,79,663)
   AND a3 in (551,162,30,872)

SELECT d6+257, x8, b3*536+e8, a4*605
  FROM t4, t3, t8, t6
 WHERE a3=e8
   AND d6=581
   AND e8 in (646,947,381,63,561,811)
   AND b4=267

SELECT d1+b7, c7+772+c1, b6+e1
  FROM t7, t6, t1
 WHERE d6 in (613,600,277,36,822,446,192)
   AND e7 in (120,503,290,976,156)
   AND a1=e6

SELECT a6+315+d9, d3, c9, b1+659+b9, b5
  FROM t3, t9, t6, t1, t5
 WHERE a1=c6
   AND a3 in (184,218,457,490,865,971)
   AND c9=402
   AND 293=c5
   AND d6 in (223,376,2,956)

SELECT e3+d5, d5*793+c4, a4+c4, x2
  FROM t3, t5, t2, t4
 WHERE b4 in (635,849,587,608)
   AND c5 in (527,149,384,734,12,599,485)
   AND (220=c2 OR 869=c2)
   AND a3 in (396,979,5,935,997,697,581)

SELECT c5+e8, d4+393, x9, b3, a8+e3, c6
  FROM t6, t9, t5, t3, t4, t8
 WHERE (d6=2 OR d6=196 OR d6=424 OR 185=d6)
   AND a3 in (971,245,265)
   AND c5 in (86,158,351,689,818)
   AND b4 in (442,538,23,587,288,76,660,802)
   AND b9 in (171,688,456,880)
   AND e8 in (586,578,333)

SELECT x3, b6+739, d7+c3
  FROM t7, t3, t6
 WHERE d6 in (974,129,458)
   AND e7=184
   AND (a3=429 OR 368=a3)

SELECT a5+902, e2, b3
  FROM t5, t3, t2
 WHERE b2 in (414,812,864,628,819,527)
   AND 579=c5
   AND a3 in (979,997,262,532,164,696)

SELECT d7*524, a1*755
  FROM t7, t1
 WHERE e7=975
   AND a1 in (222,477,866,825)

SELECT a8+c8, x2, d4+45, d3
  FROM t8, t2, t3, t4
 WHERE a3=c2
   AND e8 in (947,469,586,919,608,635,63,874)
   AND (b4=23 OR 532=b4 OR b4=167 OR 294=b4)
   AND 851=a2

SELECT b2, c8*582, e4, b7+731, a3*232, a5+748
  FROM t7, t2, t5, t4, t8, t3
 WHERE e8 in (431,421,579,617,242)
   AND a3 in (396,353,995,135,777,303,234)
   AND b4=551
   AND c5=936
   AND e7=98
   AND b2 in (864,966,932,846)

SELECT e7*826+b1, c1, e5, a4, d2+d1, b9*924+c2
  FROM t1, t4, t7, t5, t2, t9
 WHERE b4 in (961,532,323)
   AND e9 in (799,841,197,255,264)
   AND (a2=268 OR a2=927 OR 709=a2 OR 235=a2)
   AND 887=e7
   AND a1 in (32,742,281,829,460,895,668)
   AND c5 in (868,44,613,158,443,924,923)

SELECT c3+c7, e7+307, e6, d4+700+a8, b8+454, d5+733, a2
  FROM t7, t5, t8, t2, t3, t6, t4
 WHERE b4 in (137,323,901,76)
   AND c2 in (988,244,24,819,251,83,450,575)
   AND c5 in (579,18,734,437)
   AND (553=e7 OR 156=e7 OR e7=201 OR e7=971)
   AND e8 in (512,56,548,179,617,806)
   AND 162=a3
   AND d6=469

  SELECT e2 FROM t2
   WHERE a2 in (308,789,245,262,588,64,916,185,691,495,898)
EXCEPT
  SELECT e4 FROM t4
   WHERE NOT ((489=c4 OR e4=820)
           OR c4 in (690,667,675,271,299,971,215)
           OR (486=e4 OR 854=e4))
EXCEPT
  SELECT a1 FROM t1
   WHERE NOT ((a1=213)
           OR (a1=895 AND d1=643))
UNION
  SELECT e7 FROM t7
   WHERE (e7=624 AND 466=a7)
      OR (a7=158 OR e7=154)
      OR (976=e7 AND 655=b7 AND d7=590 AND 249=c7 AND 876=a7)
UNION ALL
  SELECT a6 FROM t6
   WHERE (77=e6 OR a6=799 OR 158=b6)
EXCEPT
  SELECT d8 FROM t8
   WHERE NOT ((241=a8 AND d8=767 AND c8=647 AND e8=455)
           OR (e8=561)
           OR (445=a8))

SELECT c5+e8, d4+393, x9, b3, a8+e3, c6
  FROM t4, t3, t9, t6, t5, t8
 WHERE a3 in (971,245,265)
   AND b4 in (442,538,23,587,288,76,660,802)
   AND c5 in (86,158,351,689,818)
   AND b9 in (171,688,456,880)
   AND e8 in (586,578,333)
   AND (d6=2 OR d6=196 OR d6=424 OR 185=d6)

SELECT * FROM t1

  SELECT a6 FROM t6
   WHERE e6 in (574,617,737,257,286,431,24,261)
      OR (c6=637 OR e6=324 OR a6=121)
UNION ALL
  SELECT c3 FROM t3
   WHERE (d3=554)
      OR (393=e3 OR b3=321 OR c3=565)
EXCEPT
  SELECT a9 FROM t9
   WHERE NOT ((51=d9 AND 128=b9 AND a9=905 AND 327=c9 AND 647=e9)
           OR (947=e9 AND 569=c9))

SELECT c6, x8
  FROM t8, t6
 WHERE d6=750
   AND 981=e8

  SELECT b4 FROM t4
   WHERE e4 in (1,575,885,719,739,151,820,600,377,858,252,596,12)
      OR (617=d4 OR 293=c4)
      OR e4 in (352,48,206)
UNION ALL
  SELECT a6 FROM t6
   WHERE (c6=287)
      OR (620=c6)
      OR (185=d6 AND 6=e6 AND c6=287 AND 962=b6)
EXCEPT
  SELECT a7 FROM t7
   WHERE NOT ((a7=97 AND 579=b7 AND d7=527))
UNION
  SELECT e2 FROM t2
   WHERE c2 in (233,251,711,964,160,360,854)
      OR (b2=161 OR 235=a2 OR 35=a2)
      OR (c2=160 AND 441=e2 AND 555=d2 AND 135=a2)
EXCEPT
  SELECT d9 FROM t9
   WHERE NOT ((305=d9 OR e9=149 OR 696=c9)
           OR (19=b9 AND 847=a9 AND c9=75 AND 129=d9 AND e9=549))
UNION ALL
  SELECT c8 FROM t8
   WHERE (d8=108 AND 374=c8 AND b8=454 AND 592=e8)
      OR (a8=259 AND b8=705 AND e8=561)
      OR e8 in (579,310,233,203,305,455,809)
EXCEPT
  SELECT a3 FROM t3
   WHERE NOT ((685=b3 OR 135=d3)
           OR (b3=505 OR c3=885 OR 378=a3)
           OR b3 in (454,295,198,41,57,339,127,73))
UNION ALL
  SELECT a1 FROM t1
   WHERE (a1=866 OR e1=298 OR c1=898)
      OR (717=d1 OR d1=55 OR 585=c1)
      OR b1 in (572,259,5,226,523,779,993,43,404,570,807)
EXCEPT
  SELECT a5 FROM t5
   WHERE NOT (d5 in (779,132,238,274,742,789,155,553,401,271)
           OR (d5=991 OR b5=772 OR 413=d5)
           OR (e5=729 OR 554=e5 OR b5=855))

SELECT d3+621, x9
  FROM t9, t3
 WHERE (d9=682 OR 602=d9 OR d9=597)
   AND 727=a3

  SELECT c9 FROM t9
   WHERE (b9=595)
      OR (680=b9 OR 214=b9)
      OR (301=b9 AND e9=19 AND 104=d9 AND c9=936 AND a9=349)
UNION
  SELECT e8 FROM t8
   WHERE (a8=386 OR c8=647 OR 446=d8)
      OR (503=b8)
      OR d8 in (849,391,781,880,738)
EXCEPT
  SELECT d3 FROM t3
   WHERE NOT (e3 in (596,119,665,318,138,854,876,375,266,981,818,135,424,145))
UNION ALL
  SELECT d1 FROM t1
   WHERE (574=d1 AND e1=313 AND a1=241 AND 168=c1 AND 729=b1)
UNION ALL
  SELECT b7 FROM t7
   WHERE (166=b7 OR 979=e7)
      OR (360=b7 AND d7=801 AND 439=a7 AND e7=462)
      OR e7 in (979,900,782,841,499,844,462,827,976)

SELECT d9*704, x8, c6, c5, a2
  FROM t5, t9, t6, t8, t2
 WHERE e8 in (578,440,497,199)
   AND 509=b2
   AND a9=263
   AND d6 in (974,129,72,424,667,711)
   AND c5=d6

SELECT a6*97+a6, b8*274
  FROM t8, t6
 WHERE (e8=874 OR e8=833)
   AND d6 in (277,129,151,901,974)

SELECT c8, a7+870, d2+d1, a1, d3+c2
  FROM t3, t7, t1, t8, t2
 WHERE d2=216
   AND a1 in (950,267,879,299,847,249)
   AND e8 in (548,260,295,893,761,495,918,729)
   AND a3 in (913,275,822)
   AND e7 in (290,422,689,826,120,979)

CREATE TABLE t1(
  a1 INTEGER PRIMARY KEY,
  b1 INTEGER,
  x1 VARCHAR(40)
)

CREATE TABLE t2(
  a2 INTEGER PRIMARY KEY,
  b2 INTEGER,
  x2 VARCHAR(40)
)

CREATE TABLE t3(
  a3 INTEGER PRIMARY KEY,
  b3 INTEGER,
  x3 VARCHAR(40)
)

INSERT INTO t21 VALUES(4,3,'table t21 row 4')

INSERT INTO t20 VALUES(9,5,'table t20 row 9')

INSERT INTO t55 VALUES(3,7,'table t55 row 3')

SELECT x63,x53,x62,x52,x11,x5,x40,x64,x27,x28,x21,x41,x22,x30,x16,x14,x56,x32,x46,x50,x1,x34
  FROM t46,t34,t1,t32,t53,t21,t63,t11,t30,t62,t27,t50,t16,t64,t40,t56,t22,t28,t52,t5,t41,t14
 WHERE a21=b5
   AND b30=a52
   AND a62=b46
   AND a14=3
   AND b52=a28
   AND b53=a14
   AND a63=b28
   AND b40=a56
   AND a11=b64
   AND a53=b22
   AND b1=a34
   AND b32=a41
   AND a50=b63
   AND a64=b62
   AND b11=a30
   AND b27=a40
   AND a22=b56
   AND b21=a46
   AND a1=b50
   AND b34=a16
   AND a27=b16
   AND a5=b41

SELECT x2,x3,x52,x22,x14,x49,x59
  FROM t49,t52,t59,t22,t14,t2,t3
 WHERE b22=a2
   AND b2=a14
   AND a3=9
   AND b14=a49
   AND a59=b52
   AND a3=b59
   AND b49=a52

SELECT x44,x17,x7,x59,x54,x63,x33,x38,x41,x52,x16,x37,x23,x21,x29,x50,x48,x31,x4,x60,x34,x40,x11,x49,x36,x19,x28,x1,x20,x42,x3,x39,x18,x10,x25,x64,x56,x35,x61,x47,x26,x57,x45,x6,x14,x58
  FROM t29,t26,t45,t35,t50,t4,t23,t6,t18,t36,t17,t14,t56,t52,t41,t28,t19,t1,t10,t20,t21,t3,t47,t63,t48,t34,t61,t37,t16,t58,t59,t57,t25,t42,t7,t31,t38,t39,t40,t11,t44,t49,t54,t60,t64,t33
 WHERE b38=a49
   AND a3=b54
   AND b11=a57
   AND a61=b44
   AND a39=b56
   AND b4=a47
   AND a59=4
   AND a36=b26
   AND a54=b45
   AND a59=b20
   AND b16=a41
   AND a28=b18
   AND a48=b64
   AND a17=b35
   AND a56=b47
   AND a45=b58
   AND a11=b29
   AND a16=b49
   AND b36=a58
   AND b19=a1
   AND a10=b34
   AND a31=b25
   AND a37=b61
   AND b40=a33
   AND a60=b21
   AND a34=b50
   AND b41=a50
   AND a38=b14
   AND a4=b10
   AND a19=b3
   AND a25=b6
   AND a52=b63
   AND b31=a18
   AND a14=b17
   AND b42=a21
   AND a20=b57
   AND a26=b39
   AND a42=b28
   AND b48=a63
   AND b37=a23
   AND b1=a29
   AND a7=b33
   AND b7=a35
   AND a40=b60
   AND a6=b23
   AND b52=a44

SELECT x2,x26,x12,x28,x37,x51,x21,x25,x42,x13,x55,x45,x39,x20,x34,x54,x46,x64,x60,x43,x58,x48,x36,x63,x38,x44,x14,x15,x18,x23,x41,x56,x57,x8,x30,x49,x35,x40,x50,x11,x4,x29,x27,x17,x3,x33,x62,x19,x59,x1,x10,x7,x6,x16,x24,x47,x32,x9,x22
  FROM t50,t26,t4,t10,t62,t3,t45,t51,t1,t37,t28,t59,t7,t21,t9,t19,t55,t14,t15,t18,t29,t11,t33,t38,t44,t57,t30,t20,t43,t40,t49,t63,t32,t46,t54,t39,t36,t6,t64,t41,t25,t47,t24,t8,t35,t16,t34,t56,t2,t42,t13,t23,t17,t22,t12,t58,t48,t60,t27
 WHERE b30=a56
   AND a28=b45
   AND a59=b3
   AND b14=a40
   AND b42=a11
   AND a2=b36
   AND a29=b27
   AND b60=a24
   AND a14=b48
   AND b15=a64
   AND a23=b39
   AND a2=5
   AND b50=a58
   AND b37=a15
   AND b44=a41
   AND a63=b33
   AND a49=b58
   AND a6=b32
   AND b41=a26
   AND b54=a46
   AND b57=a39
   AND a47=b56
   AND b19=a42
   AND b40=a4
   AND b49=a21
   AND a30=b59
   AND a22=b24
   AND a37=b21
   AND b23=a25
   AND a57=b22
   AND b13=a3
   AND a50=b7
   AND b63=a12
   AND b20=a43
   AND b1=a13
   AND b34=a62
   AND b29=a1
   AND a16=b11
   AND a17=b16
   AND a48=b9
   AND a8=b12
   AND b55=a34
   AND b25=a33
   AND a60=b28
   AND a35=b8
   AND a18=b10
   AND a55=b17
   AND b47=a20
   AND a32=b64
   AND b18=a45
   AND b43=a19
   AND b51=a54
   AND b62=a10
   AND b26=a27
   AND a36=b4
   AND b46=a9
   AND a7=b38
   AND b6=a44
   AND b35=a51

SELECT x64,x44,x40,x30,x29,x15,x9,x50,x62,x4,x59,x25,x35,x51,x38,x6,x41,x11,x2,x48,x1,x53,x46,x17,x58,x57,x63,x16,x36,x24,x60,x39,x61,x8,x5,x27,x10,x32,x23,x3,x18
  FROM t16,t30,t25,t11,t38,t46,t2,t9,t58,t4,t40,t59,t6,t23,t63,t61,t48,t51,t15,t10,t17,t53,t32,t57,t44,t50,t18,t35,t39,t27,t41,t1,t36,t5,t24,t29,t62,t8,t64,t60,t3
 WHERE a32=b23
   AND a41=b3
   AND b44=a10
   AND b24=a44
   AND a29=b36
   AND b25=a11
   AND a35=b4
   AND a5=2
   AND b59=a62
   AND b9=a53
   AND a63=b30
   AND a39=b29
   AND b58=a38
   AND b27=a48
   AND b35=a2
   AND a5=b8
   AND b50=a58
   AND b41=a59
   AND a36=b17
   AND a8=b60
   AND b63=a24
   AND a57=b10
   AND a30=b51
   AND b40=a3
   AND b15=a51
   AND b2=a9
   AND a23=b46
   AND a46=b6
   AND a40=b39
   AND a4=b11
   AND a16=b64
   AND a15=b62
   AND a60=b48
   AND b32=a61
   AND a18=b1
   AND a1=b61
   AND b18=a64
   AND b38=a25
   AND a27=b57
   AND a17=b16
   AND b53=a6

SELECT x41,x48,x16,x12,x26,x57,x14,x59,x20,x8,x51,x34,x25
  FROM t51,t14,t57,t16,t26,t59,t41,t25,t34,t48,t12,t20,t8
 WHERE a26=b16
   AND b34=a59
   AND b51=a34
   AND a57=b12
   AND a20=6
   AND a12=b14
   AND b8=a20
   AND a8=b48
   AND a16=b57
   AND a51=b25
   AND a41=b26
   AND a48=b59
   AND a25=b41

SELECT x31,x40,x7,x13,x62,x20,x12,x47,x3,x32,x39,x59,x22,x6,x36,x56,x34,x11,x4,x61,x18,x30,x63,x45,x8,x25,x35,x15,x27,x54,x14,x1,x57,x55,x29,x23,x19,x28,x41,x48,x58,x53,x46,x9,x60,x37,x42,x38,x26,x51,x10,x16
  FROM t1,t38,t7,t3,t57,t59,t60,t25,t4,t53,t39,t47,t63,t31,t56,t55,t46,t20,t9,t29,t13,t58,t61,t35,t42,t37,t51,t26,t16,t12,t10,t41,t30,t36,t45,t22,t34,t8,t48,t14,t19,t27,t15,t11,t18,t40,t6,t54,t32,t28,t23,t62
 WHERE b36=a6
   AND b57=a35
   AND b1=a54
   AND b51=a25
   AND a51=b22
   AND a23=b32
   AND b53=a41
   AND b42=a48
   AND b31=a29
   AND a16=b63
   AND a55=b41
   AND a63=b35
   AND b30=a31
   AND a10=b47
   AND b26=a28
   AND b20=a26
   AND b54=a38
   AND b16=a20
   AND b59=a22
   AND a57=b19
   AND a11=b55
   AND b40=a39
   AND b4=a30
   AND b37=a53
   AND a9=b61
   AND a45=b60
   AND b46=a15
   AND b6=a40
   AND a27=b39
   AND b13=a7
   AND a8=b62
   AND a34=7
   AND a18=b8
   AND b58=a32
   AND a34=b10
   AND a42=b25
   AND b56=a1
   AND b18=a47
   AND b12=a19
   AND a60=b11
   AND b14=a12
   AND a56=b3
   AND a3=b27
   AND b38=a37
   AND b28=a58
   AND a4=b48
   AND b9=a46
   AND a59=b23
   AND a36=b29
   AND a13=b45
   AND b15=a14
   AND a62=b7

SELECT x15,x49,x32,x43,x63,x64,x25,x7,x48,x59,x9,x41,x4,x17,x30,x42,x50,x46,x57,x6,x53,x47,x52,x31,x60,x13,x45,x24
  FROM t24,t45,t47,t49,t6,t25,t63,t50,t57,t42,t60,t52,t53,t32,t46,t43,t15,t64,t9,t7,t30,t41,t59,t4,t13,t17,t48,t31
 WHERE b13=a64
   AND a59=b64
   AND b32=a52
   AND b7=a6
   AND b43=a47
   AND b9=a48
   AND a42=b24
   AND a32=b41
   AND b63=a46
   AND b42=a17
   AND a63=b30
   AND a60=b31
   AND a49=5
   AND a50=b47
   AND a43=b45
   AND b60=a24
   AND b59=a4
   AND a30=b15
   AND b46=a45
   AND b4=a25
   AND a57=b25
   AND a41=b53
   AND b50=a31
   AND a7=b17
   AND a9=b57
   AND a53=b6
   AND b48=a15
   AND b52=a49

SELECT x19,x8,x9,x55,x20,x60,x15,x35,x26,x18,x4,x16,x13,x53,x22,x32,x34,x59,x43,x31,x21,x30,x29,x63,x41,x46,x57,x62,x44,x45,x42,x36,x50,x56,x64,x24,x39,x37,x7,x52,x38,x51,x33,x14,x47,x11,x49,x40,x17,x54,x28,x61,x12,x23,x5,x48,x10,x27,x58,x1
  FROM t40,t26,t54,t11,t41,t56,t5,t59,t37,t29,t14,t39,t27,t12,t42,t28,t16,t1,t10,t17,t15,t45,t4,t38,t23,t22,t9,t62,t13,t36,t49,t58,t48,t47,t55,t8,t32,t33,t57,t34,t51,t44,t46,t19,t35,t31,t18,t63,t20,t60,t53,t61,t30,t24,t64,t50,t52,t7,t43,t21
 WHERE b47=a12
   AND b49=a56
   AND b37=a32
   AND b8=a9
   AND a28=b15
   AND a58=b56
   AND b11=a22
   AND b17=a14
   AND b35=a8
   AND a39=b62
   AND b32=a5
   AND a35=b16
   AND a4=b51
   AND a47=b29
   AND a59=b52
   AND b5=a26
   AND a44=b46
   AND a19=b57
   AND a63=b41
   AND b43=a62
   AND b33=a31
   AND a33=b45
   AND b13=a21
   AND a37=b42
   AND a11=b14
   AND b27=a41
   AND a16=b10
   AND b38=a45
   AND a64=b4
   AND a20=6
   AND b60=a7
   AND a18=b26
   AND b39=a53
   AND b63=a57
   AND b34=a54
   AND a20=b36
   AND b54=a40
   AND a1=b48
   AND b23=a46
   AND b64=a29
   AND b59=a15
   AND a60=b24
   AND a52=b12
   AND a43=b19
   AND b40=a13
   AND b18=a61
   AND b55=a24
   AND b50=a27
   AND a49=b61
   AND b53=a17
   AND a55=b1
   AND b7=a38
   AND a23=b31
   AND a48=b9
   AND a50=b30
   AND a10=b28
   AND b44=a42
   AND a34=b58
   AND b21=a30
   AND b22=a36

SELECT x22,x52,x59,x17,x29,x43,x53,x58,x38,x50,x54,x61,x14,x12,x27,x39,x36
  FROM t61,t17,t43,t59,t36,t58,t12,t14,t22,t53,t52,t39,t54,t38,t50,t27,t29
 WHERE a53=b61
   AND a54=b43
   AND b38=a59
   AND b54=a12
   AND a12=9
   AND b27=a50
   AND b29=a36
   AND a29=b59
   AND a52=b22
   AND b50=a58
   AND a38=b58
   AND a61=b52
   AND a22=b36
   AND b39=a27
   AND b14=a43
   AND b53=a14
   AND b17=a39

SELECT x3,x26,x28,x61,x44,x46,x18,x47,x9,x63,x17,x64,x32,x2,x34
  FROM t26,t46,t64,t61,t44,t18,t63,t2,t28,t9,t34,t32,t47,t3,t17
 WHERE b47=a64
   AND a3=b64
   AND a61=b2
   AND a28=b61
   AND b34=a32
   AND b44=a34
   AND a9=b17
   AND b3=a26
   AND b63=a18
   AND a63=b32
   AND a2=b9
   AND b18=a17
   AND a47=b46
   AND a44=b26
   AND a28=5

SELECT x27,x9,x60,x62,x29,x5,x2,x57,x51,x42,x54,x20,x49,x17,x24,x10,x23,x33,x13,x25,x16,x38,x37,x19,x55,x48,x61,x39,x28,x8,x44,x30,x22,x45,x12,x7,x43,x56,x52,x3,x36,x1,x41
  FROM t54,t3,t19,t12,t1,t9,t60,t44,t22,t57,t5,t56,t8,t36,t29,t23,t49,t45,t48,t39,t62,t33,t17,t13,t51,t28,t30,t7,t24,t10,t41,t43,t27,t2,t16,t38,t61,t52,t55,t42,t37,t20,t25
 WHERE b13=a22
   AND a19=10
   AND a1=b56
   AND b8=a49
   AND b24=a7
   AND b7=a25
   AND a38=b42
   AND b37=a28
   AND a12=b38
   AND a9=b55
   AND b23=a13
   AND a39=b57
   AND a23=b27
   AND b2=a30
   AND b10=a33
   AND a43=b49
   AND a52=b43
   AND a55=b12
   AND b41=a60
   AND a19=b3
   AND a27=b60
   AND b16=a44
   AND b61=a3
   AND b39=a17
   AND b30=a41
   AND b48=a36
   AND a42=b25
   AND a37=b22
   AND b29=a16
   AND b44=a5
   AND b45=a10
   AND b52=a20
   AND a29=b36
   AND b17=a54
   AND b28=a57
   AND b20=a45
   AND b1=a62
   AND b5=a24
   AND a48=b33
   AND b54=a56
   AND a8=b62
   AND a61=b9
   AND a2=b51

SELECT x32,x34,x57,x11,x52,x51,x12,x47,x20,x38,x36
  FROM t32,t36,t34,t12,t20,t52,t11,t47,t38,t57,t51
 WHERE a52=b47
   AND a11=b32
   AND b20=a32
   AND b12=a47
   AND b36=a38
   AND a34=3
   AND a36=b51
   AND b52=a34
   AND b38=a12
   AND a57=b11
   AND b57=a51

SELECT x13,x9,x60,x41,x53,x1,x57,x2,x37,x50,x5,x43,x45,x39,x46,x48,x58,x62,x36,x17,x33,x54,x3,x38,x27,x26,x18,x16,x59,x40,x55,x25,x15,x61,x7,x28,x47,x22,x23,x11,x64,x32,x52,x29,x56,x4,x6,x42,x49,x12,x20,x14,x34,x63,x10,x35,x19
  FROM t53,t16,t28,t29,t7,t49,t55,t56,t59,t5,t50,t37,t33,t38,t4,t22,t46,t9,t52,t43,t34,t57,t27,t17,t42,t39,t47,t62,t36,t14,t20,t45,t13,t11,t25,t60,t12,t35,t10,t2,t61,t15,t32,t23,t1,t3,t41,t26,t48,t64,t18,t63,t6,t58,t54,t40,t19
 WHERE a45=b37
   AND a23=b58
   AND b64=a53
   AND b26=a52
   AND a58=b7
   AND a34=b47
   AND a49=b34
   AND b33=a2
   AND a35=b5
   AND a37=b41
   AND b38=a19
   AND b54=a29
   AND b28=a16
   AND a41=b19
   AND a14=b62
   AND b39=a40
   AND b57=a48
   AND b32=a26
   AND a12=b17
   AND a9=b14
   AND b16=a47
   AND a62=b3
   AND b25=a38
   AND a13=b22
   AND a63=b18
   AND b46=a28
   AND b10=a42
   AND b55=a10
   AND b52=a36
   AND a43=b20
   AND b43=a6
   AND a1=9
   AND b63=a3
   AND a61=b40
   AND a7=b29
   AND b12=a64
   AND b59=a18
   AND b15=a11
   AND b61=a55
   AND a59=b45
   AND a20=b49
   AND b23=a4
   AND a1=b53
   AND b9=a15
   AND b48=a17
   AND b13=a56
   AND a57=b4
   AND b50=a5
   AND a27=b35
   AND a39=b6
   AND a54=b36
   AND a25=b2
   AND a46=b11
   AND a33=b60
   AND a32=b27
   AND b42=a50
   AND a60=b56

SELECT x15,x32,x36,x64,x46,x54,x45,x57
  FROM t32,t15,t46,t54,t36,t45,t57,t64
 WHERE a57=b54
   AND a46=b32
   AND b45=a15
   AND a36=3
   AND b15=a54
   AND a45=b46
   AND a32=b64
   AND a36=b57

SELECT x60,x27,x36,x5,x32,x28
  FROM t60,t5,t28,t36,t32,t27
 WHERE a60=6
   AND b36=a32
   AND b28=a60
   AND a28=b32
   AND a27=b5
   AND a36=b27

SELECT x13,x23,x6,x39,x22,x40,x16,x2,x27,x25,x9,x8,x56,x60,x11,x48,x28,x42,x7,x19,x5,x55,x20,x44,x18,x51,x36,x34,x38,x52,x64,x14,x3,x37
  FROM t16,t19,t39,t9,t40,t3,t55,t36,t48,t18,t8,t25,t44,t2,t14,t56,t23,t42,t13,t11,t7,t22,t51,t60,t27,t37,t64,t52,t28,t38,t34,t5,t6,t20
 WHERE b39=a56
   AND b20=a28
   AND b28=a34
   AND a51=b19
   AND a42=b36
   AND a5=b9
   AND a38=b25
   AND a48=b8
   AND a19=b18
   AND a11=4
   AND a64=b13
   AND a14=b56
   AND b42=a23
   AND b5=a40
   AND a60=b38
   AND a13=b48
   AND b44=a18
   AND a39=b52
   AND b51=a9
   AND b3=a55
   AND a52=b23
   AND a2=b40
   AND a3=b22
   AND a6=b37
   AND b55=a27
   AND a37=b34
   AND b14=a8
   AND a20=b60
   AND b16=a25
   AND a16=b27
   AND a7=b6
   AND a11=b2
   AND a22=b64
   AND a44=b7

SELECT x41,x51,x62,x45,x64,x63,x40,x8,x27,x34,x7,x23,x5,x50,x16,x26,x31,x49,x11,x14,x30,x1,x3,x42,x22,x29,x33,x54,x59,x28,x35,x44,x4,x57,x32,x2,x60,x21,x9,x19,x61,x56,x15,x43,x48,x47,x36,x55,x18,x58,x52,x25,x37,x13,x10,x6
  FROM t42,t43,t23,t35,t61,t63,t64,t26,t28,t2,t62,t59,t21,t30,t8,t55,t11,t29,t33,t25,t6,t47,t27,t3,t58,t32,t41,t37,t7,t31,t18,t49,t14,t44,t10,t54,t57,t50,t16,t48,t22,t56,t36,t34,t1,t19,t4,t60,t15,t40,t9,t13,t51,t5,t52,t45
 WHERE a58=b54
   AND b51=a27
   AND b19=a48
   AND b5=a14
   AND a10=b8
   AND b7=a52
   AND a31=b50
   AND a4=b33
   AND a60=b57
   AND a44=b52
   AND b55=a63
   AND b40=a16
   AND b18=a34
   AND a25=b63
   AND b26=a13
   AND b16=a54
   AND a32=b29
   AND b14=a28
   AND a45=b25
   AND a6=b15
   AND b2=a9
   AND a5=b23
   AND a33=b44
   AND a9=4
   AND a61=b47
   AND b6=a7
   AND b42=a8
   AND a55=b61
   AND a18=b48
   AND b43=a19
   AND b45=a62
   AND b21=a50
   AND a1=b60
   AND b11=a64
   AND a42=b62
   AND a3=b27
   AND a57=b31
   AND b37=a23
   AND a47=b13
   AND a21=b22
   AND b41=a37
   AND a22=b30
   AND b58=a41
   AND b49=a2
   AND a29=b34
   AND b10=a43
   AND b59=a49
   AND a56=b36
   AND b32=a51
   AND a26=b56
   AND b1=a35
   AND a40=b3
   AND b35=a59
   AND b64=a30
   AND b4=a11
   AND b28=a15

SELECT x39,x2,x1,x36,x17,x32,x54,x5,x15,x63,x49,x16,x50,x26,x20,x6,x11,x21,x45,x34,x33,x52,x28
  FROM t21,t26,t15,t17,t32,t34,t39,t16,t49,t33,t1,t20,t6,t36,t50,t28,t5,t63,t54,t52,t2,t45,t11
 WHERE a63=b26
   AND b54=a28
   AND b15=a36
   AND a11=7
   AND a5=b28
   AND a50=b16
   AND a16=b5
   AND b50=a52
   AND a54=b45
   AND a49=b20
   AND a34=b39
   AND b63=a20
   AND a33=b6
   AND a39=b2
   AND b36=a45
   AND b49=a1
   AND a21=b52
   AND b32=a2
   AND b1=a15
   AND a26=b34
   AND a11=b21
   AND b17=a6
   AND b33=a32

SELECT x56,x13,x54,x59,x45,x58,x20,x43,x37,x25,x50,x3,x10,x42,x33,x62,x38,x6,x52,x31,x2,x18,x53,x16,x61,x51,x15,x49,x34,x26,x17,x27,x44,x39,x32,x1,x55,x4,x46,x8,x48,x64,x24,x29,x28,x47,x19
  FROM t19,t3,t37,t17,t55,t56,t24,t15,t43,t20,t64,t32,t51,t61,t29,t58,t2,t6,t31,t25,t18,t53,t46,t54,t4,t13,t44,t8,t28,t48,t10,t27,t59,t34,t45,t47,t50,t62,t39,t33,t26,t16,t1,t49,t38,t42,t52
 WHERE b2=a54
   AND b24=a27
   AND a17=b49
   AND a3=b38
   AND a2=b19
   AND a28=b53
   AND b18=a37
   AND a56=b42
   AND b32=a34
   AND a62=b31
   AND a4=b25
   AND b46=a24
   AND b58=a42
   AND a58=b33
   AND b55=a33
   AND b1=a15
   AND a52=b47
   AND a47=b15
   AND a26=b37
   AND a64=8
   AND a38=b54
   AND a59=b61
   AND b26=a32
   AND b56=a20
   AND b39=a61
   AND a16=b17
   AND a55=b27
   AND a25=b52
   AND a46=b3
   AND a45=b4
   AND b6=a10
   AND b10=a49
   AND b8=a1
   AND a39=b50
   AND b48=a44
   AND a64=b29
   AND b43=a13
   AND a53=b51
   AND a29=b45
   AND a18=b28
   AND b16=a8
   AND b44=a43
   AND a48=b20
   AND a51=b13
   AND a50=b34
   AND b59=a6
   AND a19=b62

SELECT x24,x30,x38,x29,x46,x23,x50,x43,x61,x10
  FROM t46,t29,t43,t61,t24,t50,t38,t23,t10,t30
 WHERE b61=a43
   AND a23=7
   AND a23=b24
   AND b38=a24
   AND b29=a61
   AND b46=a38
   AND a29=b50
   AND a50=b10
   AND b43=a30
   AND a46=b30

SELECT x44,x17,x7,x59,x54,x63,x33,x38,x41,x52,x16,x37,x23,x21,x29,x50,x48,x31,x4,x60,x34,x40,x11,x49,x36,x19,x28,x1,x20,x42,x3,x39,x18,x10,x25,x64,x56,x35,x61,x47,x26,x57,x45,x6,x14,x58
  FROM t61,t64,t34,t20,t28,t33,t59,t29,t3,t40,t31,t19,t35,t42,t63,t48,t50,t39,t41,t4,t38,t26,t56,t10,t17,t57,t25,t44,t47,t36,t49,t6,t21,t14,t1,t11,t37,t58,t54,t18,t52,t60,t45,t7,t23,t16
 WHERE a54=b45
   AND b38=a49
   AND a26=b39
   AND a38=b14
   AND a29=b1
   AND b10=a4
   AND b23=a6
   AND a59=4
   AND b50=a34
   AND b49=a16
   AND b34=a10
   AND b48=a63
   AND b36=a58
   AND a60=b21
   AND a28=b18
   AND a39=b56
   AND b7=a35
   AND a11=b29
   AND b17=a14
   AND a17=b35
   AND a57=b11
   AND b54=a3
   AND a59=b20
   AND a19=b3
   AND b25=a31
   AND b26=a36
   AND a48=b64
   AND a37=b61
   AND a21=b42
   AND a41=b16
   AND a52=b63
   AND b52=a44
   AND a33=b40
   AND a23=b37
   AND b57=a20
   AND b44=a61
   AND b31=a18
   AND a42=b28
   AND a7=b33
   AND a50=b41
   AND b58=a45
   AND a40=b60
   AND a1=b19
   AND a56=b47
   AND a25=b6
   AND a47=b4

SELECT x1,x43,x21,x24,x55,x31,x7,x29,x50,x27,x19,x37,x23,x58,x8,x53,x10,x36,x35,x64,x49,x59,x40,x11,x47,x60,x42,x30,x5,x34,x15,x38,x3,x26,x20,x52,x51,x9,x48,x16,x61,x63,x25,x28,x18,x12,x62,x6,x46
  FROM t19,t46,t64,t6,t35,t16,t53,t36,t1,t61,t31,t9,t40,t37,t18,t62,t27,t49,t60,t51,t10,t59,t29,t3,t34,t48,t52,t15,t12,t50,t25,t30,t38,t23,t11,t24,t8,t63,t55,t43,t47,t58,t21,t20,t42,t28,t5,t7,t26
 WHERE b50=a49
   AND b15=a29
   AND b48=a46
   AND a60=b59
   AND a26=b46
   AND b5=a43
   AND a20=b60
   AND b24=a8
   AND b42=a55
   AND a25=b1
   AND a50=b31
   AND a35=b16
   AND a47=b6
   AND a34=b18
   AND a1=b36
   AND b25=a63
   AND a11=b49
   AND a10=b43
   AND a27=b20
   AND a31=b61
   AND b47=a38
   AND a36=b19
   AND b27=a52
   AND b37=a23
   AND a53=b58
   AND b40=a18
   AND a37=b7
   AND a62=b52
   AND b9=a21
   AND b23=a58
   AND b62=a7
   AND a48=b35
   AND b26=a6
   AND a59=b21
   AND b10=a24
   AND b11=a19
   AND a28=b55
   AND a5=b63
   AND a38=3
   AND b8=a16
   AND b12=a61
   AND a30=b28
   AND a9=b29
   AND b51=a64
   AND a15=b3
   AND b30=a51
   AND a42=b53
   AND b34=a12
   AND a40=b64

SELECT x34,x50,x16,x12,x24
  FROM t50,t12,t34,t24,t16
 WHERE b16=a34
   AND a34=9
   AND b12=a16
   AND b50=a24
   AND b24=a12

SELECT x45,x32,x36,x31,x10,x1,x53,x11,x23,x22,x61,x51,x2,x47,x38,x58,x26,x43,x46,x33,x25,x50,x21,x9,x29,x19,x55,x49,x62,x3,x30,x4
  FROM t46,t33,t9,t61,t3,t1,t53,t36,t4,t19,t21,t2,t30,t49,t26,t23,t38,t45,t25,t22,t29,t62,t10,t31,t32,t50,t51,t58,t55,t43,t11,t47
 WHERE b51=a3
   AND a62=b38
   AND a9=5
   AND b49=a29
   AND b23=a43
   AND b29=a19
   AND a36=b30
   AND a58=b3
   AND b26=a45
   AND a50=b25
   AND a51=b62
   AND b36=a1
   AND a23=b19
   AND a26=b32
   AND b11=a25
   AND b46=a32
   AND b21=a10
   AND a49=b33
   AND b58=a2
   AND b45=a55
   AND a53=b50
   AND b53=a21
   AND b1=a31
   AND a47=b22
   AND a46=b61
   AND a9=b10
   AND b2=a11
   AND b43=a61
   AND b4=a33
   AND a4=b31
   AND b47=a38
   AND a22=b55

SELECT x51,x53,x63,x25,x54,x60,x34,x36,x6,x56,x10,x22,x38,x50,x31,x20,x24,x37,x47,x62,x23,x19,x18,x39,x2,x35,x3,x57,x21,x41,x15
  FROM t53,t25,t54,t36,t22,t21,t60,t23,t51,t38,t47,t37,t18,t41,t19,t39,t15,t2,t34,t62,t6,t24,t3,t10,t57,t63,t56,t50,t35,t31,t20
 WHERE b15=a31
   AND b39=a56
   AND b37=a62
   AND a22=b51
   AND b54=a18
   AND a2=10
   AND b10=a36
   AND b19=a25
   AND a54=b24
   AND a51=b34
   AND a21=b41
   AND b63=a23
   AND b25=a50
   AND a6=b38
   AND a20=b53
   AND a60=b56
   AND a24=b50
   AND b31=a34
   AND a35=b36
   AND b21=a39
   AND a47=b23
   AND a37=b60
   AND a3=b6
   AND a53=b62
   AND a15=b35
   AND b20=a63
   AND b57=a38
   AND b18=a10
   AND a41=b22
   AND a2=b3
   AND a57=b47

SELECT x20,x37,x55,x40,x31,x15,x28,x48,x64,x17,x1,x56,x4,x11,x5,x26,x52,x32,x35,x63,x60,x38,x36,x22,x24,x39,x13,x33,x61,x49,x58,x47
  FROM t20,t15,t52,t56,t4,t48,t60,t28,t35,t5,t11,t33,t1,t26,t64,t31,t24,t32,t39,t22,t13,t63,t55,t40,t36,t47,t58,t49,t38,t61,t37,t17
 WHERE b40=a5
   AND b39=a63
   AND a33=b60
   AND a1=b52
   AND b31=a64
   AND b64=a28
   AND b17=a24
   AND a60=b4
   AND b15=a35
   AND a26=b33
   AND b11=a40
   AND b48=a22
   AND b35=a47
   AND a4=b37
   AND a56=b5
   AND a15=b13
   AND b28=a48
   AND b55=a49
   AND b49=a11
   AND b63=a61
   AND a17=b20
   AND a32=b22
   AND a36=b24
   AND a52=b32
   AND b61=a37
   AND b38=a31
   AND b26=a55
   AND a47=1
   AND a13=b36
   AND b1=a39
   AND b56=a58
   AND b58=a20

SELECT x30,x22,x3,x23,x47,x9,x16,x1,x34,x28,x8,x59,x12,x38,x54,x61,x20,x45,x4,x7,x41,x53,x46,x15,x64,x24,x17,x44,x21,x60,x35,x49,x19
  FROM t4,t60,t12,t54,t61,t22,t35,t47,t23,t7,t41,t8,t9,t3,t17,t20,t53,t24,t21,t46,t19,t30,t15,t16,t45,t64,t59,t44,t38,t34,t49,t28,t1
 WHERE a1=b9
   AND b22=a30
   AND a17=b53
   AND a61=10
   AND b34=a3
   AND b15=a35
   AND b28=a19
   AND b23=a46
   AND b8=a49
   AND a23=b3
   AND a12=b30
   AND a8=b59
   AND b49=a44
   AND a34=b38
   AND a53=b19
   AND a20=b41
   AND b47=a15
   AND a24=b21
   AND b17=a54
   AND a9=b44
   AND a4=b16
   AND b12=a45
   AND b7=a41
   AND b20=a61
   AND b54=a16
   AND b24=a38
   AND b46=a59
   AND a60=b4
   AND b64=a28
   AND b1=a22
   AND b60=a47
   AND a7=b35
   AND a64=b45

SELECT x41,x10,x14,x56,x42,x57,x6,x4,x13,x8,x54,x33,x16,x17,x47,x23,x52,x25,x36,x28,x1,x9,x53,x64,x11,x34,x39,x7,x51,x30,x5,x46,x38,x2,x48,x50,x27,x49,x15,x31,x26,x62,x44,x37,x55,x59,x22,x40,x12,x3,x35,x63,x21,x61,x43,x60,x24,x29,x20,x58,x19,x32,x45
  FROM t26,t17,t44,t7,t9,t59,t40,t52,t16,t23,t15,t13,t19,t28,t20,t64,t29,t42,t12,t1,t4,t50,t47,t24,t34,t58,t11,t25,t27,t31,t61,t8,t3,t48,t32,t38,t46,t21,t36,t55,t39,t56,t37,t63,t33,t54,t53,t60,t22,t43,t14,t41,t2,t6,t51,t49,t62,t10,t5,t35,t57,t30,t45
 WHERE a56=b55
   AND b44=a49
   AND a30=b34
   AND b12=a13
   AND a53=b7
   AND b39=a61
   AND b41=a32
   AND b64=a27
   AND b25=a24
   AND b36=a50
   AND a34=b52
   AND b22=a37
   AND a59=b5
   AND a25=b11
   AND b60=a16
   AND a26=b3
   AND a48=b2
   AND a46=b63
   AND b27=a44
   AND a38=b10
   AND b43=a57
   AND a3=b61
   AND b45=a43
   AND a33=b8
   AND a29=b35
   AND a64=b1
   AND a51=b33
   AND b51=a21
   AND a63=b58
   AND b24=a2
   AND b23=a35
   AND a10=b9
   AND b13=a1
   AND a58=b40
   AND a55=b14
   AND a15=b49
   AND a28=b20
   AND b42=a5
   AND a11=b37
   AND b38=a31
   AND a41=b17
   AND b56=a17
   AND b29=a62
   AND b28=a8
   AND b62=a19
   AND b47=a45
   AND a52=b19
   AND a22=b54
   AND b46=a54
   AND b16=a4
   AND a12=b30
   AND a42=b31
   AND b59=a39
   AND b21=a47
   AND a60=b26
   AND b48=a6
   AND a23=b53
   AND a32=3
   AND a14=b50
   AND a20=b15
   AND b6=a36
   AND a7=b4
   AND a40=b57

SELECT x34,x58,x27,x33,x46,x56,x9,x8,x43,x45,x35,x25,x36,x60,x40,x17,x14,x48,x21,x42,x50,x61,x38,x59,x39,x7,x10,x54,x41,x52,x47,x19,x4,x15,x44,x26,x32,x51,x29,x13,x18,x37,x55,x22,x3,x64,x1,x11,x53,x23,x31,x63,x6,x57,x5,x12,x49,x2,x30,x28,x20,x24,x62
  FROM t58,t8,t18,t45,t39,t61,t31,t46,t26,t63,t43,t52,t37,t13,t12,t5,t6,t62,t21,t49,t9,t35,t1,t23,t60,t15,t24,t38,t19,t29,t34,t56,t50,t53,t32,t44,t2,t51,t25,t57,t48,t7,t42,t41,t17,t14,t55,t22,t4,t40,t28,t11,t20,t59,t10,t64,t3,t54,t36,t27,t33,t47,t30
 WHERE b19=a22
   AND b43=a34
   AND a4=b15
   AND a53=b50
   AND a62=b17
   AND b25=a31
   AND b51=a47
   AND a60=b28
   AND a6=b21
   AND a14=b56
   AND a35=b62
   AND a29=b14
   AND b60=a8
   AND a49=b52
   AND a39=b2
   AND a45=b49
   AND a37=b12
   AND b36=a19
   AND a32=b40
   AND b55=a25
   AND a58=b11
   AND a11=b61
   AND b48=a50
   AND b20=a18
   AND a30=b53
   AND a40=b13
   AND b29=a3
   AND a52=b63
   AND b44=a27
   AND a57=b38
   AND b26=a28
   AND a24=b3
   AND a48=b39
   AND a61=b22
   AND a41=b37
   AND a9=b35
   AND b64=a59
   AND a13=b42
   AND b57=a17
   AND a1=b59
   AND a51=b31
   AND a46=b33
   AND a21=b1
   AND a5=b9
   AND a26=b32
   AND b34=a33
   AND b45=a10
   AND b4=a38
   AND b46=a63
   AND a56=b58
   AND b41=a20
   AND a55=b27
   AND b6=a36
   AND b7=a12
   AND a15=b10
   AND a7=b30
   AND b54=a44
   AND a2=b5
   AND a24=4
   AND a54=b8
   AND b47=a43
   AND a64=b18
   AND a42=b23

SELECT + + CAST( + - 4 AS SIGNED ) FROM tab0 cor0 WHERE NOT col1 NOT BETWEEN NULL AND - col3

SELECT + + CAST( + - 4 AS SIGNED ) FROM tab1 cor0 WHERE NOT col1 NOT BETWEEN NULL AND - col3

SELECT + + CAST( + - 4 AS SIGNED ) FROM tab2 cor0 WHERE NOT col1 NOT BETWEEN NULL AND - col3

SELECT + + CAST( + - 4 AS SIGNED ) FROM tab3 cor0 WHERE NOT col1 NOT BETWEEN NULL AND - col3

SELECT cor0.col2 AS col2 FROM tab2 AS cor0 GROUP BY col2 HAVING NOT NULL < NULL

SELECT cor0.col1 FROM tab1 AS cor0 GROUP BY cor0.col1 HAVING NULL = NULL

SELECT cor0.col1 - + cor0.col1 * cor0.col1 AS col1 FROM tab1 AS cor0 GROUP BY cor0.col1 HAVING NOT NULL IS NOT NULL

SELECT + tab2.col2 AS col1 FROM tab2 GROUP BY tab2.col2 HAVING NULL IS NULL

  SELECT e9 FROM t9
   WHERE (264=e9)
      OR (608=d9 AND 245=b9 AND 365=a9)
      OR d9 in (821,360,686,601,720,744,606,450,818,270,732,111,737)
INTERSECT
  SELECT c1 FROM t1
   WHERE NOT ((b1=255)
           OR (544=a1 OR 775=c1 OR 60=b1)
           OR (523=c1))
UNION
  SELECT e8 FROM t8
   WHERE (269=b8 AND e8=272)
      OR (e8=579 OR 729=e8)
      OR (761=b8 AND e8=179 AND c8=775)
EXCEPT
  SELECT c3 FROM t3
   WHERE NOT (a3 in (820,101,383,822,594,457,971,818,380,12)
           OR (964=a3 AND d3=444))

  SELECT e6 FROM t6
   WHERE (c6=528 AND d6=991)
      OR d6 in (196,453,931,337,60,667,73,493,66)
INTERSECT
  SELECT d1 FROM t1
   WHERE NOT ((149=b1 AND a1=776))

  SELECT e9 FROM t9
   WHERE b9 in (228,16,66,819,239,262,680,751,2,64,568,348,12)
      OR (953=a9)
      OR (a9=757)
INTERSECT
  SELECT b5 FROM t5
   WHERE NOT ((a5=81 AND e5=440 AND 369=d5 AND b5=855)
           OR (b5=98 OR 13=e5 OR 242=a5)
           OR (413=a5))

  SELECT d1 FROM t1
   WHERE (731=e1)
INTERSECT
  SELECT b4 FROM t4
   WHERE NOT ((e4=29 AND 35=b4))
EXCEPT
  SELECT c5 FROM t5
   WHERE NOT (a5 in (447,637,297,878,341,311,960,362,921,740,867,429,800)
           OR a5 in (270,976,904,878,330,476,335,757,821,447,50,180,818,153)
           OR c5 in (140,155,149,3,545,579,657,978,86,855,485))
UNION
  SELECT a9 FROM t9
   WHERE b9 in (152,74,136,891,19,149,759,15)

  SELECT d3 FROM t3
   WHERE a3 in (265,499,777)
      OR (c3=887 AND 333=e3 AND 584=b3)
INTERSECT
  SELECT b6 FROM t6
   WHERE NOT ((d6=337)
           OR (511=e6 AND 560=d6 AND 637=c6))
UNION
  SELECT a2 FROM t2
   WHERE (902=c2 OR 476=d2)
      OR (455=a2 AND b2=681)
      OR (543=b2 OR a2=35 OR a2=916)

  SELECT c1 FROM t1
   WHERE (525=a1 AND c1=670)
      OR (574=d1 OR 255=b1)
INTERSECT
  SELECT c7 FROM t7
   WHERE NOT (e7 in (156,522,503,215,39,234,782))
UNION ALL
  SELECT c9 FROM t9
   WHERE (25=d9 OR 759=d9 OR c9=254)
      OR (245=b9 OR 226=d9 OR 297=a9)
UNION
  SELECT a2 FROM t2
   WHERE (d2=886 AND a2=785)
      OR (189=a2 OR 90=b2)
      OR (223=e2 OR 1=a2)
EXCEPT
  SELECT e4 FROM t4
   WHERE NOT ((554=e4 AND d4=574)
           OR (c4=585)
           OR (847=b4 AND 797=d4 AND 546=e4))
