/* The smallest fast Hold'em bot: checks or calls (all-in for less when short), keeps the
 * bankrolls for the Money reply. Stacks reset every hand (the server's default). Used by
 * benchmarks/match.py to measure the server, not the bot. Any player count, both games. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#define GET fgets(line, sizeof line, stdin)
int main(void){
  char line[4096]; int n=0; long money[16]={0}; long stack=0;
  setvbuf(stdout,NULL,_IOFBF,1<<16);
  while(GET){
    if(!strcmp(line,"init_round\n")){
      GET; n=1; for(char*p=line;*p;p++) if(*p==',') n++;
      GET; GET; GET;                          /* Blinds, Button, EndProb */
      GET; int limit=!strcmp(line,"Game: holdem-limit\n");
      GET; stack=atol(line+7);                /* Stack: */
      GET; if(limit) GET;                     /* StackMode, BetSizes */
      puts("READY"); fflush(stdout);
    } else if(!strcmp(line,"init_hand\n")){
      GET; GET; puts("READY"); fflush(stdout);
    } else if(!strcmp(line,"play\n")){
      long mine=0, table=0;
      for(int i=0;i<n;i++){ GET; long v=atol(strrchr(line,' ')+1); if(!i) mine=v; if(v>table) table=v; }
      GET; GET; GET; long behind=atol(line+8); GET;   /* Board, Pot, Stacks, Raise */
      printf("BET %ld\n", table < mine+behind ? table : mine+behind); fflush(stdout);
    } else if(!strcmp(line,"end_hand\n")){
      for(int i=0;i<n+3;i++) GET;             /* Actions, Showdown, Pots, Board */
      GET; char*p=line+7;                     /* Stacks: */
      for(int i=0;i<n;i++){ money[i]+=strtol(p,&p,10)-stack; p++; }
      puts("OK"); fflush(stdout);
    } else if(!strncmp(line,"EndAction",9)){
      for(int i=1;i<n;i++) GET;
      printf("Money: "); for(int i=0;i<n;i++) printf(i?",%ld":"%ld",money[i]); printf("\n"); fflush(stdout);
    } else if(!strcmp(line,"end_round\n")){
      GET; GET; puts("Thank you dealer, have a nice day!"); fflush(stdout); return 0;
    }
  }
  return 0;
}
